import { describe, expect, it, vi } from "vitest";
import { createActor, fromPromise, SimulatedClock, waitFor } from "xstate";
import { type CardLoadInput, cardMachine, cardMessages, cardSearchDebounceMs } from "./card-machine";
import { selectCardExpanded, selectCardHelpShown, selectCardMessage, selectCardView } from "./selectors";

function start(load: (input: CardLoadInput) => Promise<unknown>, period?: number, params?: unknown) {
  const record = vi.fn();
  const calls: CardLoadInput[] = [];
  const machine = cardMachine.provide({
    actors: {
      load: fromPromise(async ({ input }) => {
        calls.push(input);
        return load(input);
      }),
    },
    actions: { recordFeatureUsage: (_, p) => record(p) },
  });
  const actor = createActor(machine, {
    input: { name: "Net variance trend", period, toggle: "Revenue", params },
  }).start();
  return { actor, record, calls };
}

const shown = (actor: ReturnType<typeof start>["actor"]) =>
  waitFor(actor, (s) => s.matches({ data: "shown" }));

describe("card machine (docs/behaviour.md#cards-and-pop-ups)", () => {
  it("loads, then shows content", async () => {
    const { actor } = start(async () => [1, 2]);
    expect(selectCardView(actor.getSnapshot())).toBe("loading");
    await shown(actor);
    expect(selectCardView(actor.getSnapshot())).toBe("content");
    expect(selectCardMessage(actor.getSnapshot())).toBeNull();
  });

  it("says so when there is nothing to show, or when loading failed, and retries", async () => {
    const empty = start(async () => null);
    await shown(empty.actor);
    expect(selectCardMessage(empty.actor.getSnapshot())).toBe(cardMessages.empty);
    let fail = true;
    const broken = start(async () => {
      if (fail) throw new Error("500");
      return [1];
    });
    await waitFor(broken.actor, (s) => s.matches({ data: "error" }));
    expect(selectCardMessage(broken.actor.getSnapshot())).toBe(
      "An error occurred while displaying this card.",
    );
    fail = false;
    broken.actor.send({ type: "card.retry" });
    await shown(broken.actor);
    expect(selectCardView(broken.actor.getSnapshot())).toBe("content");
  });

  it("expands a period under 12 to 12 and shrinks to 8, reloading each time and recording the feature use", async () => {
    const { actor, record, calls } = start(async ({ period }) => [period], 8);
    await shown(actor);
    actor.send({ type: "card.expand" });
    expect(selectCardExpanded(actor.getSnapshot())).toBe(true);
    expect(actor.getSnapshot().context.period).toBe(12);
    await shown(actor);
    expect(actor.getSnapshot().context.data).toEqual([12]);
    // Still expanded while the longer series loaded.
    expect(selectCardExpanded(actor.getSnapshot())).toBe(true);
    actor.send({ type: "card.shrink" });
    expect(selectCardExpanded(actor.getSnapshot())).toBe(false);
    expect(actor.getSnapshot().context.period).toBe(8);
    await shown(actor);
    expect(calls.map((c) => c.period)).toEqual([8, 12, 8]);
    expect(record.mock.calls.map((c) => c[0])).toEqual([
      { feature: "Net variance trend", action: "Expand" },
      { feature: "Net variance trend", action: "Shrink" },
    ]);
  });

  it("keeps a longer period when expanding without reloading, and carries toggle and search into the expanded copy", async () => {
    const { actor, calls } = start(async () => [1], 24);
    await shown(actor);
    actor.send({ type: "card.search", term: "acme" });
    actor.send({ type: "card.expand" });
    expect(actor.getSnapshot().context.period).toBe(24);
    expect(selectCardView(actor.getSnapshot())).toBe("content");
    expect(actor.getSnapshot().context.search).toBe("acme");
    actor.send({ type: "card.toggle", value: "Margin" });
    await shown(actor);
    expect(calls.map((c) => [c.period, c.toggle])).toEqual([
      [24, "Revenue"],
      [24, "Margin"],
    ]);
    expect(calls.at(-1)?.search).toBe("acme");
    expect(selectCardExpanded(actor.getSnapshot())).toBe(true);
    expect(actor.getSnapshot().context.search).toBe("acme");
  });

  it("reloads when its params change by value, not when the same params come again", async () => {
    const { actor, calls } = start(async ({ params }) => [params], 8, { dateTo: "2025-06" });
    await shown(actor);
    actor.send({ type: "card.params", params: { dateTo: "2025-06" } });
    expect(selectCardView(actor.getSnapshot())).toBe("content");
    actor.send({ type: "card.params", params: { dateTo: "2025-07" } });
    expect(selectCardView(actor.getSnapshot())).toBe("loading");
    await shown(actor);
    expect(calls.map((c) => c.params)).toEqual([{ dateTo: "2025-06" }, { dateTo: "2025-07" }]);
  });

  it("records the help text shown and hidden", async () => {
    const { actor, record } = start(async () => [1]);
    actor.send({ type: "card.showHelp" });
    actor.send({ type: "card.showHelp" });
    expect(selectCardHelpShown(actor.getSnapshot())).toBe(true);
    actor.send({ type: "card.hideHelp" });
    expect(selectCardHelpShown(actor.getSnapshot())).toBe(false);
    expect(record.mock.calls.map((c) => c[0].action)).toEqual(["Help shown", "Help hidden"]);
  });

  it("asks again 300 ms after the last keystroke when its search is part of its call", async () => {
    const clock = new SimulatedClock();
    const calls: CardLoadInput[] = [];
    const actor = createActor(
      cardMachine.provide({
        actors: {
          load: fromPromise(async ({ input }) => {
            calls.push(input);
            return [input.search];
          }),
        },
      }),
      { input: { name: "Lost clients", searchReloads: true }, clock },
    ).start();
    await waitFor(actor, (s) => s.matches({ data: "shown" }));
    actor.send({ type: "card.search", term: "ac" });
    clock.increment(cardSearchDebounceMs - 1);
    actor.send({ type: "card.search", term: "acme" });
    expect(actor.getSnapshot().context.search).toBe("acme");
    clock.increment(cardSearchDebounceMs - 1);
    expect(calls).toHaveLength(1);
    clock.increment(1);
    await waitFor(actor, (s) => s.matches({ data: "shown" }));
    expect(calls.map((c) => c.search)).toEqual(["", "acme"]);
    expect(actor.getSnapshot().context.data).toEqual(["acme"]);
  });
});
