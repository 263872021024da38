/** The signed-in app's chunk; start-up begins loading it as soon as the session is known. */
export const loadWorkspace = () => import("../workspace/WorkspaceRoot");
