import { describe, expect, it, vi } from "vitest";
import { createActor, SimulatedClock } from "xstate";
import {
  analyticsDebounceMs,
  analyticsMachine,
  featureUsageRecord,
  notFoundRecord,
} from "./analytics-machine";

function start(enabled = true) {
  const clock = new SimulatedClock();
  const send = vi.fn();
  const actor = createActor(analyticsMachine.provide({ actions: { send: (_, p) => send(p.records) } }), {
    input: { enabled },
    clock,
  }).start();
  return { actor, clock, send };
}

describe("analytics (docs/api.md#analytics-records)", () => {
  it("sends the queued records together 1 s after the last one", () => {
    const { actor, clock, send } = start();
    actor.send({ type: "analytics.record", record: notFoundRecord("/nope"), at: 0 });
    clock.increment(600);
    actor.send({ type: "analytics.record", record: featureUsageRecord("Trend", "Expand"), at: 600 });
    clock.increment(analyticsDebounceMs - 1);
    expect(send).not.toHaveBeenCalled();
    clock.increment(1);
    expect(send).toHaveBeenCalledOnce();
    expect(send.mock.calls[0]?.[0]).toEqual([
      { recordType: "FrontEnd404", recordData: "/nope", keys: { key1: "/nope" }, timeAgoMs: 1600 },
      {
        recordType: "FeatureUsage",
        recordData: "Trend: Expand",
        keys: { key1: "Trend", key2: "Expand" },
        timeAgoMs: 1000,
      },
    ]);
    clock.increment(5000);
    expect(send).toHaveBeenCalledOnce();
  });

  it("records nothing while recording is off", () => {
    const { actor, clock, send } = start(false);
    actor.send({ type: "analytics.record", record: notFoundRecord("/x"), at: 0 });
    clock.increment(analyticsDebounceMs * 2);
    expect(send).not.toHaveBeenCalled();
    actor.send({ type: "analytics.enable", enabled: true });
    actor.send({ type: "analytics.record", record: notFoundRecord("/y"), at: 0 });
    clock.increment(analyticsDebounceMs);
    expect(send).toHaveBeenCalledOnce();
  });

  it("sends whole milliseconds however the times were measured", () => {
    const { actor, clock, send } = start();
    actor.send({ type: "analytics.record", record: notFoundRecord("/a"), at: 10.6 });
    clock.increment(analyticsDebounceMs);
    expect(send.mock.calls[0]?.[0][0].timeAgoMs).toBe(1000);
    actor.send({ type: "analytics.record", record: notFoundRecord("/b"), at: 2000.2 });
    actor.send({ type: "analytics.record", record: notFoundRecord("/c"), at: 2500.9 });
    clock.increment(analyticsDebounceMs);
    expect(send.mock.calls[1]?.[0].map((r: { timeAgoMs: number }) => r.timeAgoMs)).toEqual([1501, 1000]);
  });
});
