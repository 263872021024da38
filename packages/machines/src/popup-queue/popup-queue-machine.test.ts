import { describe, expect, it } from "vitest";
import { createActor, SimulatedClock } from "xstate";
import { popupQueueDelayMs, popupQueueMachine } from "./popup-queue-machine";

describe("pop-up queue (docs/behaviour.md#cards-and-pop-ups)", () => {
  it("shows one pop-up at a time and the next 100 ms after a close", () => {
    const clock = new SimulatedClock();
    const actor = createActor(popupQueueMachine, { clock }).start();
    actor.send({ type: "popup.enqueue", popup: { id: "a", title: "A" } });
    actor.send({ type: "popup.enqueue", popup: { id: "b", title: "B" } });
    expect(actor.getSnapshot().context.current?.id).toBe("a");
    actor.send({ type: "popup.close" });
    expect(actor.getSnapshot().context.current).toBeNull();
    clock.increment(popupQueueDelayMs - 1);
    expect(actor.getSnapshot().context.current).toBeNull();
    clock.increment(1);
    expect(actor.getSnapshot().context.current?.id).toBe("b");
    actor.send({ type: "popup.close" });
    clock.increment(popupQueueDelayMs);
    expect(actor.getSnapshot().context.current).toBeNull();
    expect(actor.getSnapshot().matches("idle")).toBe(true);
  });

  it("shows a pop-up queued while idle at once", () => {
    const actor = createActor(popupQueueMachine, { clock: new SimulatedClock() }).start();
    expect(actor.getSnapshot().context.current).toBeNull();
    actor.send({ type: "popup.enqueue", popup: { id: "x", title: "X" } });
    expect(actor.getSnapshot().context.current?.id).toBe("x");
  });
});
