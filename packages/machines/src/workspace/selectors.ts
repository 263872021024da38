import type { SnapshotFrom } from "xstate";
import type { workspaceMachine } from "./workspace-machine";

type Snapshot = SnapshotFrom<typeof workspaceMachine>;

export const selectMenuExpanded = (s: Snapshot) => s.matches({ menu: "expanded" });
export const selectSearchOpen = (s: Snapshot) => s.matches({ search: "open" });
export const selectNavigationMapOpen = (s: Snapshot) => s.matches({ navigationMap: "open" });
export const selectProfileOpen = (s: Snapshot) => s.matches({ profile: "open" });
export const selectDemoCallToActionOpen = (s: Snapshot) => s.matches({ demoCallToAction: "open" });
