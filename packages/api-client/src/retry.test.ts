import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApiClient } from "./create-api-client";
import { retryDelays } from "./retry";
import { simulatedClock } from "./testing/simulated-clock";
import { items, lookup, noRetry, save, upload } from "./testing/test-contracts";
import { json, startTestServer } from "./testing/test-server";

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.seen.length = 0;
});

describe("retries (docs/api.md#retries-and-caching)", () => {
  it("retries a failing GET twice, 1500 ms then 3000 ms, each with at most 10% jitter", async () => {
    server.answer((_req, res) => json(res, 503, { message: "down" }));
    const high = simulatedClock();
    await expect(
      createApiClient({ baseUrl: server.baseUrl, clock: high.clock, random: () => 1 }).call(items, {
        query: { dateFrom: "x" },
      }),
    ).rejects.toMatchObject({ status: 503 });
    expect(server.seen).toHaveLength(3);
    expect(high.sleeps).toEqual([1650, 3300]);
    const low = simulatedClock();
    await createApiClient({ baseUrl: server.baseUrl, clock: low.clock, random: () => 0 })
      .call(items, { query: { dateFrom: "x" } })
      .catch(() => {});
    expect(low.sleeps).toEqual([1350, 2700]);
  });

  it("jitters with Math.random by default, within 10% of the doubling schedule", async () => {
    server.answer((_req, res) => json(res, 500, {}));
    for (let run = 0; run < 5; run++) {
      const sim = simulatedClock();
      await createApiClient({ baseUrl: server.baseUrl, clock: sim.clock })
        .call(items, { query: { dateFrom: "x" } })
        .catch(() => {});
      const [first = 0, second = 0] = sim.sleeps;
      expect(sim.sleeps).toHaveLength(2);
      expect(first).toBeGreaterThanOrEqual(1350);
      expect(first).toBeLessThanOrEqual(1650);
      expect(second).toBeGreaterThanOrEqual(2700);
      expect(second).toBeLessThanOrEqual(3300);
    }
    const spread = new Set(Array.from({ length: 50 }, () => retryDelays("default", Math.random)[0]));
    expect(spread.size).toBeGreaterThan(1);
  });

  it("answers the first success of a retry", async () => {
    const sim = simulatedClock();
    let n = 0;
    server.answer((_req, res) => (++n === 1 ? json(res, 500, {}) : json(res, 200, [{ id: 7 }])));
    const api = createApiClient({ baseUrl: server.baseUrl, clock: sim.clock, random: () => 0.5 });
    expect(await api.call(items, { query: { dateFrom: "x" } })).toEqual([{ id: 7 }]);
    expect(sim.sleeps).toEqual([1500]);
  });

  it("retries nothing when the client is made with retry: false", async () => {
    server.answer((_req, res) => json(res, 503, { message: "down" }));
    const sim = simulatedClock();
    await expect(
      createApiClient({ baseUrl: server.baseUrl, clock: sim.clock, retry: false }).call(items, {
        query: { dateFrom: "x" },
      }),
    ).rejects.toMatchObject({ status: 503 });
    expect(server.seen).toHaveLength(1);
    expect(sim.sleeps).toEqual([]);
  });

  it("retries a GET whose server cannot be reached", async () => {
    const closed = await startTestServer();
    await closed.close();
    const sim = simulatedClock();
    const api = createApiClient({ baseUrl: closed.baseUrl, clock: sim.clock, random: () => 0.5 });
    await expect(api.call(items, { query: { dateFrom: "x" } })).rejects.toMatchObject({ status: 0 });
    expect(sim.sleeps).toEqual([1500, 3000]);
  });

  it("never retries a 4xx, a POST, an upload or a GET whose policy is 'never'", async () => {
    const sim = simulatedClock();
    const api = createApiClient({ baseUrl: server.baseUrl, clock: sim.clock });
    for (const status of [400, 401, 404, 429]) {
      server.answer((_req, res) => json(res, status, {}));
      await api.call(items, { query: { dateFrom: "x" } }).catch(() => {});
      await api.call(lookup, { query: { q: String(status) } }).catch(() => {});
    }
    server.answer((_req, res) => json(res, 500, {}));
    await api.call(save, { body: { name: "x" } }).catch(() => {});
    await api.upload(upload, { file: new TextEncoder().encode("a\n"), fileName: "a.csv" }).catch(() => {});
    await api.call(noRetry).catch(() => {});
    expect(server.seen).toHaveLength(8 + 3);
    expect(sim.sleeps).toEqual([]);
  });

  it("tries a lookup 3 times in all, 1.5 s apart", async () => {
    const sim = simulatedClock();
    server.answer((_req, res) => json(res, 502, {}));
    await createApiClient({ baseUrl: server.baseUrl, clock: sim.clock, random: () => 1 })
      .call(lookup, { query: { q: "a" } })
      .catch(() => {});
    expect(server.seen).toHaveLength(3);
    expect(sim.sleeps).toEqual([1500, 1500]);
  });

  it("stops retrying when the caller aborts during the wait", async () => {
    const controller = new AbortController();
    const sim = simulatedClock();
    const clock = {
      ...sim.clock,
      sleep: async (ms: number, signal?: AbortSignal) => {
        controller.abort(new Error("gave up"));
        return sim.clock.sleep(ms, signal);
      },
    };
    server.answer((_req, res) => json(res, 500, {}));
    await expect(
      createApiClient({ baseUrl: server.baseUrl, clock }).call(
        items,
        { query: { dateFrom: "x" } },
        { signal: controller.signal },
      ),
    ).rejects.toThrow("gave up");
    expect(server.seen).toHaveLength(1);
  });
});
