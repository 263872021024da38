import { type Clock, realInterval } from "./clock";

/**
 * docs/api.md#retries-and-caching: at most 150 items, 20 minutes by default, failures 1 minute, swept every
 * 60 s.
 */
export const cacheLimits = {
  maxItems: 150,
  defaultTtlMs: 20 * 60_000,
  failureTtlMs: 60_000,
  sweepEveryMs: 60_000,
} as const;

interface Entry {
  expiresAt: number;
  promise: Promise<unknown>;
}

/**
 * Results of calls keyed by call and parameters (docs/api.md#retries-and-caching). A call in flight is shared
 * by everyone asking for the same key; a failure is kept for a minute; when full, the least recently used
 * entry goes first; an expiry sweep runs every 60 s on the injected clock until `dispose()`.
 */
export class RequestCache {
  private readonly entries = new Map<string, Entry>();
  private readonly stopSweep: () => void;

  constructor(private readonly clock: Clock) {
    const every = clock.every?.bind(clock) ?? realInterval;
    this.stopSweep = every(cacheLimits.sweepEveryMs, () => this.sweep());
  }

  get size() {
    return this.entries.size;
  }

  /** The cached result of `key`, or the result of `load` kept for `ttlMs` (failures for a minute). */
  get<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    this.entries.delete(key);
    if (hit && hit.expiresAt > this.clock.now()) {
      this.entries.set(key, hit); // most recently used now
      return hit.promise as Promise<T>;
    }
    const promise = load();
    while (this.entries.size >= cacheLimits.maxItems) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    this.entries.set(key, { promise, expiresAt: this.clock.now() + ttlMs });
    promise.catch(() => {
      const entry = this.entries.get(key);
      if (entry?.promise === promise) {
        entry.expiresAt = Math.min(entry.expiresAt, this.clock.now() + cacheLimits.failureTtlMs);
      }
    });
    return promise;
  }

  /** Drops expired entries (run every 60 s). */
  sweep() {
    const now = this.clock.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }

  clear() {
    this.entries.clear();
  }

  /** Stops the sweep and forgets everything. */
  dispose() {
    this.stopSweep();
    this.entries.clear();
  }
}
