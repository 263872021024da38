/**
 * The signed-in app's chunks. Start-up begins loading them as soon as the session is known, so that
 * they arrive, and Plotly and AG Grid are evaluated, while the app's first calls are on the network.
 */
export const loadWorkspace = () => import("../workspace/WorkspaceRoot");
const loadCharts = () => import("../ui/charts/plot-view");
const loadGrid = () => import("../ui/grid/grid-view");

export function preloadSignedInApp() {
  void loadWorkspace();
  void loadCharts();
  void loadGrid();
}
