import { describe, expect, it, vi } from "vitest";
import { createActor, fromPromise, waitFor } from "xstate";
import { cardMachine, cardMessages } from "./card-machine";
import { selectCardExpanded, selectCardMessage, selectCardView } from "./selectors";

function start(
  load: (input: { period: number; toggle: string | null }) => Promise<unknown>,
  period?: number,
) {
  const record = vi.fn();
  const calls: { period: number; toggle: string | null }[] = [];
  const machine = cardMachine.provide({
    actors: {
      load: fromPromise(async ({ input }) => {
        calls.push({ period: input.period, toggle: input.toggle });
        return load(input);
      }),
    },
    actions: { recordFeatureUsage: (_, params) => record(params) },
  });
  const actor = createActor(machine, {
    input: { name: "Net variance trend", period, toggle: "Revenue" },
  }).start();
  return { actor, record, calls };
}

describe("card machine (spec 4.5)", () => {
  it("loads, then shows content", async () => {
    const { actor } = start(async () => [1, 2]);
    expect(selectCardView(actor.getSnapshot())).toBe("loading");
    await waitFor(actor, (s) => s.matches("shown"));
    expect(selectCardView(actor.getSnapshot())).toBe("content");
    expect(selectCardMessage(actor.getSnapshot())).toBeNull();
  });

  it("says so when there is nothing to show, or when loading failed, and retries", async () => {
    const empty = start(async () => []);
    await waitFor(empty.actor, (s) => s.matches("shown"));
    expect(selectCardMessage(empty.actor.getSnapshot())).toBe(cardMessages.empty);
    let fail = true;
    const broken = start(async () => {
      if (fail) throw new Error("500");
      return [1];
    });
    await waitFor(broken.actor, (s) => s.matches("error"));
    expect(selectCardMessage(broken.actor.getSnapshot())).toBe(
      "An error occurred while displaying this card.",
    );
    fail = false;
    broken.actor.send({ type: "card.retry" });
    await waitFor(broken.actor, (s) => s.matches("shown"));
  });

  it("expands a period under 12 to 12 and shrinks to 8, recording the feature use", async () => {
    const { actor, record } = start(async () => [1], 8);
    await waitFor(actor, (s) => s.matches("shown"));
    actor.send({ type: "card.expand" });
    expect(selectCardExpanded(actor.getSnapshot())).toBe(true);
    expect(actor.getSnapshot().context.period).toBe(12);
    actor.send({ type: "card.shrink" });
    expect(actor.getSnapshot().context.period).toBe(8);
    expect(record.mock.calls.map((c) => c[0])).toEqual([
      { feature: "Net variance trend", action: "Expand" },
      { feature: "Net variance trend", action: "Shrink" },
    ]);
  });

  it("keeps a longer period when expanding, and carries toggle and search into the expanded copy", async () => {
    const { actor, calls } = start(async () => [1], 24);
    await waitFor(actor, (s) => s.matches("shown"));
    actor.send({ type: "card.search", term: "acme" });
    actor.send({ type: "card.expand" });
    expect(actor.getSnapshot().context.period).toBe(24);
    expect(actor.getSnapshot().context.search).toBe("acme");
    actor.send({ type: "card.toggle", value: "Margin" });
    await waitFor(actor, (s) => s.matches("shown"));
    expect(calls.at(-1)).toEqual({ period: 24, toggle: "Margin" });
    expect(actor.getSnapshot().context.search).toBe("acme");
  });
});
