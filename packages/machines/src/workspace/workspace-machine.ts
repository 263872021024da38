import { setup } from "xstate";

export interface WorkspaceInput {
  /** How the side menu starts (the app remembers the user's last choice). */
  menuExpanded: boolean;
}

export type WorkspaceEvent =
  | { type: "menu.toggle" }
  /** One of the menu's entries was followed on a narrow screen: the expanded strip folds away. */
  | { type: "menu.followed" }
  | { type: "search.open" }
  | { type: "search.close" }
  | { type: "navigationMap.toggle" }
  | { type: "navigationMap.close" }
  | { type: "profile.open" }
  | { type: "profile.close" }
  | { type: "demoCallToAction.open" }
  | { type: "demoCallToAction.close" };

/**
 * The signed-in frame's panels (docs/behaviour.md#widgets-and-panels), each toggled independently of the
 * others: the side menu (expanded or collapsed; the app provides `rememberMenu` to keep the choice;
 * following an entry on a narrow screen folds it without remembering that as a choice), the
 * search modal, the navigation map, the user profile modal and the demo call-to-action modal. The tour modal
 * belongs to start-up (it follows the terms form).
 */
export const workspaceMachine = setup({
  types: {
    context: {} as { menuExpanded: boolean },
    events: {} as WorkspaceEvent,
    input: {} as WorkspaceInput,
  },
  actions: {
    /** Provided by the app: remember the side menu's state. */
    rememberMenu: (_, _params: { expanded: boolean }) => {},
  },
  guards: {
    startsExpanded: ({ context }) => context.menuExpanded,
  },
}).createMachine({
  id: "workspace",
  type: "parallel",
  context: ({ input }) => ({ menuExpanded: input.menuExpanded }),
  states: {
    menu: {
      initial: "starting",
      states: {
        starting: {
          always: [{ guard: "startsExpanded", target: "expanded" }, { target: "collapsed" }],
        },
        expanded: {
          on: {
            "menu.toggle": {
              target: "collapsed",
              actions: { type: "rememberMenu", params: { expanded: false } },
            },
            "menu.followed": { target: "collapsed" },
          },
        },
        collapsed: {
          on: {
            "menu.toggle": {
              target: "expanded",
              actions: { type: "rememberMenu", params: { expanded: true } },
            },
          },
        },
      },
    },
    search: {
      initial: "closed",
      states: {
        closed: { on: { "search.open": { target: "open" } } },
        open: { on: { "search.close": { target: "closed" } } },
      },
    },
    navigationMap: {
      initial: "closed",
      states: {
        closed: { on: { "navigationMap.toggle": { target: "open" } } },
        open: {
          on: { "navigationMap.toggle": { target: "closed" }, "navigationMap.close": { target: "closed" } },
        },
      },
    },
    profile: {
      initial: "closed",
      states: {
        closed: { on: { "profile.open": { target: "open" } } },
        open: { on: { "profile.close": { target: "closed" } } },
      },
    },
    demoCallToAction: {
      initial: "closed",
      states: {
        closed: { on: { "demoCallToAction.open": { target: "open" } } },
        open: { on: { "demoCallToAction.close": { target: "closed" } } },
      },
    },
  },
});
