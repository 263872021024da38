/**
 * The signed-in app's chunk. Start-up begins loading it as soon as a session is likely (its XSRF
 * cookie) or known, so that it arrives while the app's first calls are on the network. The chart and
 * grid chunks are not loaded here: evaluating them takes the main thread for a while, and a page's
 * cards send their calls first (CardGrid asks for them right after).
 */
export const loadWorkspace = () => import("../workspace/WorkspaceRoot");

export function preloadSignedInApp() {
  void loadWorkspace();
}
