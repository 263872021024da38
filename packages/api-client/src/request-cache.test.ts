import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createApiClient } from "./create-api-client";
import { cacheLimits, RequestCache } from "./request-cache";
import { simulatedClock } from "./testing/simulated-clock";
import { change, items, lookup, periods, save } from "./testing/test-contracts";
import { json, startTestServer } from "./testing/test-server";

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.seen.length = 0;
});

/** Answers each request with a new number, so a cached answer is told from a fresh one. */
function counting() {
  let n = 0;
  server.answer((req, res) =>
    json(res, 200, req.url?.includes("Items") || req.url?.includes("Periods") ? [{ id: ++n }] : { n: ++n }),
  );
}

describe("the request cache through the client (docs/api.md#retries-and-caching)", () => {
  it("reuses a lookup for 20 minutes by parameter key", async () => {
    const sim = simulatedClock();
    const api = createApiClient({ baseUrl: server.baseUrl, clock: sim.clock });
    counting();
    expect(await api.call(lookup, { query: { q: "a" } })).toEqual({ n: 1 });
    expect(await api.call(lookup, { query: { q: "a" } })).toEqual({ n: 1 });
    expect(await api.call(lookup, { query: { q: "b" } })).toEqual({ n: 2 });
    sim.advance(cacheLimits.defaultTtlMs - 1);
    expect(await api.call(lookup, { query: { q: "a" } })).toEqual({ n: 1 });
    sim.advance(1);
    expect(await api.call(lookup, { query: { q: "a" } })).toEqual({ n: 3 });
  });

  it("keeps a failed lookup for 1 minute only", async () => {
    const sim = simulatedClock();
    const api = createApiClient({ baseUrl: server.baseUrl, clock: sim.clock });
    server.answer((_req, res) => json(res, 400, { message: "no" }));
    await expect(api.call(lookup, { query: { q: "f" } })).rejects.toMatchObject({ status: 400 });
    server.answer((_req, res) => json(res, 200, { n: 9 }));
    sim.advance(cacheLimits.failureTtlMs - 1);
    await expect(api.call(lookup, { query: { q: "f" } })).rejects.toMatchObject({ status: 400 });
    sim.advance(1);
    expect(await api.call(lookup, { query: { q: "f" } })).toEqual({ n: 9 });
    expect(server.seen).toHaveLength(2);
  });

  it("keeps contracts with their own time to live for that long, such as actual periods for 60 s", async () => {
    const sim = simulatedClock();
    const api = createApiClient({ baseUrl: server.baseUrl, clock: sim.clock });
    counting();
    expect(await api.call(periods)).toEqual([{ id: 1 }]);
    sim.advance(59_999);
    expect(await api.call(periods)).toEqual([{ id: 1 }]);
    sim.advance(1);
    expect(await api.call(periods)).toEqual([{ id: 2 }]);
  });

  it("caches an ordinary GET only when asked, and a lookup unless told not to; never a POST", async () => {
    const api = createApiClient({ baseUrl: server.baseUrl, clock: simulatedClock().clock });
    counting();
    const query = { dateFrom: "2024-01" };
    expect(await api.call(items, { query })).toEqual([{ id: 1 }]);
    expect(await api.call(items, { query })).toEqual([{ id: 2 }]);
    expect(await api.call(items, { query }, { cache: true })).toEqual([{ id: 3 }]);
    expect(await api.call(items, { query }, { cache: true })).toEqual([{ id: 3 }]);
    expect(await api.call(lookup, { query: { q: "x" } })).toEqual({ n: 4 });
    expect(await api.call(lookup, { query: { q: "x" } }, { cache: false })).toEqual({ n: 5 });
    expect(await api.call(lookup, { query: { q: "x" } })).toEqual({ n: 4 });
    server.answer((_req, res) => res.writeHead(204).end());
    await api.call(save, { body: { name: "a" } }, { cache: true });
    await api.call(save, { body: { name: "a" } }, { cache: true });
    expect(server.seen.filter((r) => r.method === "POST")).toHaveLength(2);
  });

  it("forgets every cached answer after a call that changes data succeeds, not after one that fails", async () => {
    let cleared = 0;
    const api = createApiClient({
      baseUrl: server.baseUrl,
      clock: simulatedClock().clock,
      onCacheCleared: () => cleared++,
    });
    let n = 0;
    let write = 204;
    server.answer((req, res) => {
      if (req.method === "POST") return write === 204 ? res.writeHead(204).end() : json(res, 400, {});
      json(res, 200, req.url?.includes("Periods") ? [{ id: ++n }] : { n: ++n });
    });
    expect(await api.call(lookup, { query: { q: "a" } })).toEqual({ n: 1 });
    expect(await api.call(periods)).toEqual([{ id: 2 }]);
    await api.call(save, { body: { name: "an ordinary write keeps the cache" } });
    expect(await api.call(lookup, { query: { q: "a" } })).toEqual({ n: 1 });
    write = 400;
    await expect(api.call(change, { body: { name: "a failed change" } })).rejects.toMatchObject({
      status: 400,
    });
    expect(await api.call(lookup, { query: { q: "a" } })).toEqual({ n: 1 });
    expect(cleared).toBe(0);
    write = 204;
    await api.call(change, { body: { name: "a change" } });
    expect(cleared).toBe(1);
    expect(await api.call(lookup, { query: { q: "a" } })).toEqual({ n: 3 });
    expect(await api.call(periods)).toEqual([{ id: 4 }]);
    api.clearCache();
    expect(cleared).toBe(2);
  });

  it("shares a call in flight, and one caller's abort neither stops nor poisons it for the others", async () => {
    const api = createApiClient({ baseUrl: server.baseUrl, clock: simulatedClock().clock });
    let release = () => {};
    server.answer((_req, res) => {
      release = () => json(res, 200, { n: 1 });
    });
    const controller = new AbortController();
    const first = api.call(lookup, { query: { q: "slow" } }, { signal: controller.signal });
    const second = api.call(lookup, { query: { q: "slow" } });
    await vi.waitFor(() => expect(server.seen).toHaveLength(1));
    controller.abort(new Error("left the page"));
    await expect(first).rejects.toThrow("left the page");
    release();
    expect(await second).toEqual({ n: 1 });
    expect(await api.call(lookup, { query: { q: "slow" } })).toEqual({ n: 1 });
    expect(server.seen).toHaveLength(1);
  });

  it("holds at most 150 items, dropping the least recently used", async () => {
    const api = createApiClient({ baseUrl: server.baseUrl, clock: simulatedClock().clock });
    counting();
    for (let i = 0; i < cacheLimits.maxItems; i++) await api.call(lookup, { query: { q: String(i) } });
    await api.call(lookup, { query: { q: "0" } }); // used again: now the newest
    await api.call(lookup, { query: { q: "new" } }); // the 151st pushes out "1"
    const before = server.seen.length;
    await api.call(lookup, { query: { q: "0" } });
    await api.call(lookup, { query: { q: "2" } });
    expect(server.seen.length).toBe(before);
    await api.call(lookup, { query: { q: "1" } });
    expect(server.seen.length).toBe(before + 1);
  });

  it("works with a clock that has no interval of its own, and stops its sweep on dispose", () => {
    const stop = vi.spyOn(globalThis, "clearInterval");
    const api = createApiClient({ baseUrl: server.baseUrl, clock: { now: () => 0, sleep: async () => {} } });
    api.dispose();
    expect(stop).toHaveBeenCalledTimes(1);
    stop.mockRestore();
  });
});

describe("RequestCache", () => {
  it("sweeps expired entries every 60 s on the injected clock, until disposed", async () => {
    const sim = simulatedClock();
    const cache = new RequestCache(sim.clock);
    await cache.get("short", 30_000, async () => 1);
    await cache.get("long", cacheLimits.defaultTtlMs, async () => 2);
    await cache
      .get("failed", cacheLimits.defaultTtlMs, async () => Promise.reject(new Error("x")))
      .catch(() => {});
    expect(cache.size).toBe(3);
    sim.advance(cacheLimits.sweepEveryMs);
    sim.tick();
    expect(cache.size).toBe(1); // the 30 s entry and the failure (1 minute) are gone
    sim.advance(cacheLimits.defaultTtlMs);
    sim.tick();
    expect(cache.size).toBe(0);
    expect(sim.intervals.size).toBe(1);
    cache.dispose();
    expect(sim.intervals.size).toBe(0);
  });
});
