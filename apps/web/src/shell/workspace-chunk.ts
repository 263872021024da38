import { preloadCharts } from "../ui/charts/plot-loader";
import { preloadGrid } from "../ui/grid/grid-loader";
import { viewPaths } from "../workspace/filters/view-filter";

/**
 * The signed-in app's chunk. Start-up begins loading it as soon as a session is likely (its XSRF
 * cookie) or known, so that it arrives while the app's first calls are on the network.
 */
type WorkspaceModule = typeof import("../workspace/WorkspaceRoot");
let loaded: WorkspaceModule | null = null;
export const loadWorkspace = () =>
  import("../workspace/WorkspaceRoot").then((module) => {
    loaded = module;
    return module;
  });

/**
 * The workspace, once its chunk is there: rendered directly rather than through `lazy`, which
 * suspends on its first render whatever the chunk's state, and React then holds the revealed
 * workspace back for 300 ms after its fallback showed.
 */
export const loadedWorkspace = () => loaded?.default ?? null;

/**
 * The workspace and, with it, the chart and grid chunks (Plotly and AG Grid): a browser parses a
 * script of that size off the main thread, which takes a while (Plotly's 1.1 MB most), so they are
 * asked for at once rather than when the workspace has loaded, through the loaders the chart and
 * grid doors render from (ui/charts/plot-loader.ts, ui/grid/grid-loader.ts).
 *
 * Except when the app opens on level 1 (`/` leads there): its charts and its table are drawn first
 * without Plotly and AG Grid, which are loaded once the page is drawn (ui/charts/Chart.tsx,
 * ui/grid/Grid.tsx). Loading them meanwhile would take the machine's time from the page being drawn.
 */
export function preloadSignedInApp() {
  void loadWorkspace();
  const path = window.location.pathname;
  if (path === "/" || path === viewPaths.level1) return;
  preloadCharts();
  preloadGrid();
}
