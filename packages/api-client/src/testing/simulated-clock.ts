import type { Clock } from "../clock";

/**
 * A clock for tests: sleeps pass at once and are recorded (moving time on by the same amount),
 * `advance` moves time, and `tick` runs the intervals (the cache's sweep) as if their period passed.
 */
export function simulatedClock(start = 1_000_000) {
  let now = start;
  const sleeps: number[] = [];
  const intervals = new Set<() => void>();
  const clock: Required<Clock> = {
    now: () => now,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      sleeps.push(ms);
      now += ms;
    },
    every: (_ms, fn) => {
      intervals.add(fn);
      return () => intervals.delete(fn);
    },
  };
  return {
    clock,
    sleeps,
    intervals,
    advance(ms: number) {
      now += ms;
    },
    tick() {
      for (const fn of intervals) fn();
    },
  };
}
