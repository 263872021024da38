import { describe, expect, it, vi } from "vitest";
import { createActor } from "xstate";
import {
  selectDemoCallToActionOpen,
  selectMenuExpanded,
  selectNavigationMapOpen,
  selectProfileOpen,
  selectSearchOpen,
} from "./selectors";
import { workspaceMachine } from "./workspace-machine";

function start(menuExpanded: boolean) {
  const remember = vi.fn();
  const actor = createActor(
    workspaceMachine.provide({ actions: { rememberMenu: (_, p) => remember(p.expanded) } }),
    { input: { menuExpanded } },
  ).start();
  return { actor, remember };
}

describe("workspace panels (docs/behaviour.md#widgets-and-panels)", () => {
  it("starts the side menu as remembered and remembers each toggle", () => {
    const collapsed = start(false);
    expect(selectMenuExpanded(collapsed.actor.getSnapshot())).toBe(false);
    const { actor, remember } = start(true);
    expect(selectMenuExpanded(actor.getSnapshot())).toBe(true);
    actor.send({ type: "menu.toggle" });
    expect(selectMenuExpanded(actor.getSnapshot())).toBe(false);
    actor.send({ type: "menu.toggle" });
    expect(remember.mock.calls.map((c) => c[0])).toEqual([false, true]);
  });

  it("folds the expanded menu when an entry is followed, without remembering it as a choice", () => {
    const { actor, remember } = start(true);
    actor.send({ type: "menu.followed" });
    expect(selectMenuExpanded(actor.getSnapshot())).toBe(false);
    actor.send({ type: "menu.followed" });
    expect(selectMenuExpanded(actor.getSnapshot())).toBe(false);
    expect(remember).not.toHaveBeenCalled();
    actor.send({ type: "menu.toggle" });
    expect(remember.mock.calls.map((c) => c[0])).toEqual([true]);
  });

  it("toggles each panel independently of the others", () => {
    const { actor } = start(true);
    actor.send({ type: "search.open" });
    actor.send({ type: "profile.open" });
    actor.send({ type: "navigationMap.toggle" });
    let s = actor.getSnapshot();
    expect([selectSearchOpen(s), selectProfileOpen(s), selectNavigationMapOpen(s)]).toEqual([
      true,
      true,
      true,
    ]);
    expect(selectDemoCallToActionOpen(s)).toBe(false);
    actor.send({ type: "search.close" });
    actor.send({ type: "navigationMap.toggle" });
    s = actor.getSnapshot();
    expect([selectSearchOpen(s), selectProfileOpen(s), selectNavigationMapOpen(s)]).toEqual([
      false,
      true,
      false,
    ]);
    expect(selectMenuExpanded(s)).toBe(true);
    actor.send({ type: "demoCallToAction.open" });
    expect(selectDemoCallToActionOpen(actor.getSnapshot())).toBe(true);
  });
});
