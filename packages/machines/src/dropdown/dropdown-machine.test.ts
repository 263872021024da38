import { describe, expect, it, vi } from "vitest";
import { createActor, SimulatedClock } from "xstate";
import {
  dropdownMachine,
  dropdownScrollDebounceMs,
  dropdownVisible,
  selectDropdownMessage,
} from "./dropdown-machine";

const options = [
  { key: "a", label: "Acme Ltd" },
  { key: "b", label: "Globex" },
  { key: "c", label: "Acorn Dental" },
];

function start() {
  const clock = new SimulatedClock();
  const scrolled = vi.fn();
  const actor = createActor(
    dropdownMachine.provide({ actions: { scrolled: (_, p) => scrolled(p.scrollTop) } }),
    {
      input: { options },
      clock,
    },
  ).start();
  return { actor, clock, scrolled };
}

describe("dropdown (spec 2.6)", () => {
  it("opens, filters, says 'No results' when nothing matches, and forgets the filter on close", () => {
    const { actor } = start();
    actor.send({ type: "dropdown.open" });
    actor.send({ type: "dropdown.filter", text: "ac" });
    expect(dropdownVisible(actor.getSnapshot().context).map((o) => o.key)).toEqual(["a", "c"]);
    actor.send({ type: "dropdown.filter", text: "zzz" });
    expect(selectDropdownMessage(actor.getSnapshot().context)).toBe("No results");
    actor.send({ type: "dropdown.key", key: "Enter" });
    expect(actor.getSnapshot().matches("open")).toBe(true);
    actor.send({ type: "dropdown.close" });
    expect(actor.getSnapshot().context.filter).toBe("");
  });

  it("moves with the arrow keys within the visible options and picks with Enter; Escape closes", () => {
    const { actor } = start();
    actor.send({ type: "dropdown.toggle" });
    actor.send({ type: "dropdown.filter", text: "ac" });
    actor.send({ type: "dropdown.key", key: "ArrowDown" });
    actor.send({ type: "dropdown.key", key: "ArrowDown" });
    expect(actor.getSnapshot().context.highlighted).toBe(1);
    actor.send({ type: "dropdown.key", key: "ArrowUp" });
    actor.send({ type: "dropdown.key", key: "ArrowDown" });
    actor.send({ type: "dropdown.key", key: "Enter" });
    expect(actor.getSnapshot().context.selected?.key).toBe("c");
    expect(actor.getSnapshot().matches("closed")).toBe(true);
    actor.send({ type: "dropdown.open" });
    actor.send({ type: "dropdown.key", key: "Escape" });
    expect(actor.getSnapshot().matches("closed")).toBe(true);
  });

  it("settles scrolling 100 ms after the last scroll", () => {
    const { actor, clock, scrolled } = start();
    actor.send({ type: "dropdown.open" });
    actor.send({ type: "dropdown.scroll", scrollTop: 10 });
    clock.increment(dropdownScrollDebounceMs - 1);
    actor.send({ type: "dropdown.scroll", scrollTop: 40 });
    clock.increment(dropdownScrollDebounceMs - 1);
    expect(scrolled).not.toHaveBeenCalled();
    clock.increment(1);
    expect(scrolled).toHaveBeenCalledExactlyOnceWith(40);
  });
});
