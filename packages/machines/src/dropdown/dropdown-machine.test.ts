import { describe, expect, it, vi } from "vitest";
import { createActor, fromPromise, SimulatedClock } from "xstate";
import {
  type DropdownLookupInput,
  dropdownMachine,
  dropdownScrollDebounceMs,
  dropdownSearchDebounceMs,
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

describe("dropdown (docs/behaviour.md#widgets-and-panels)", () => {
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

describe("a dropdown that searches on the server", () => {
  const names = Array.from({ length: 120 }, (_, i) => ({ key: String(i + 1), label: `Client ${i + 1}` }));

  function remote() {
    const clock = new SimulatedClock();
    const asked: DropdownLookupInput[] = [];
    const actor = createActor(
      dropdownMachine.provide({
        actors: {
          lookup: fromPromise(async ({ input }) => {
            asked.push(input);
            const matches = names.filter((n) => n.label.includes(input.text));
            return {
              options: matches.slice(input.startRow - 1, input.startRow - 1 + input.rowLimit),
              total: matches.length,
            };
          }),
        },
      }),
      { input: { remote: true }, clock },
    ).start();
    return { actor, clock, asked };
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it("asks when it opens and once the typing rests, pages on, and says 'No results'", async () => {
    const { actor, clock, asked } = remote();
    actor.send({ type: "dropdown.open" });
    await settle();
    expect(actor.getSnapshot().context.options).toHaveLength(50);
    expect(actor.getSnapshot().context.total).toBe(120);
    actor.send({ type: "dropdown.loadMore" });
    await settle();
    expect(actor.getSnapshot().context.options).toHaveLength(100);
    actor.send({ type: "dropdown.filter", text: "Client 1" });
    clock.increment(dropdownSearchDebounceMs - 1);
    actor.send({ type: "dropdown.filter", text: "Client 11" });
    clock.increment(dropdownSearchDebounceMs - 1);
    expect(asked).toHaveLength(2);
    clock.increment(1);
    await settle();
    expect(asked.map((a) => [a.text, a.startRow])).toEqual([
      ["", 1],
      ["", 51],
      ["Client 11", 1],
    ]);
    // Remote options are the server's matches as they are (it matched codes too).
    expect(dropdownVisible(actor.getSnapshot().context).map((o) => o.label)).toEqual([
      "Client 11",
      "Client 110",
      "Client 111",
      "Client 112",
      "Client 113",
      "Client 114",
      "Client 115",
      "Client 116",
      "Client 117",
      "Client 118",
      "Client 119",
    ]);
    actor.send({ type: "dropdown.select", key: "115" });
    expect(actor.getSnapshot().context.selected).toEqual({ key: "115", label: "Client 115" });
    actor.send({ type: "dropdown.open" });
    actor.send({ type: "dropdown.filter", text: "nobody" });
    clock.increment(dropdownSearchDebounceMs);
    await settle();
    expect(selectDropdownMessage(actor.getSnapshot().context)).toBe("No results");
    actor.send({ type: "dropdown.select", key: null });
    expect(actor.getSnapshot().context.selected).toBeNull();
  });
});
