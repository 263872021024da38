/** Time as the client sees it; tests pass a simulated one, so retries and expiry need no waiting. */
export interface Clock {
  now(): number;
  /** Waits `ms`; rejects with the signal's reason when it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Calls `fn` every `ms` and returns a function that stops it. Optional: without it the cache's
   * expiry sweep runs on a real (unref'd) timer, still judging expiry by `now()`.
   */
  every?(ms: number, fn: () => void): () => void;
}

/** Calls `fn` every `ms` on a real timer that does not keep Node alive. */
export function realInterval(ms: number, fn: () => void): () => void {
  const timer = setInterval(fn, ms);
  (timer as { unref?: () => void }).unref?.();
  return () => clearInterval(timer);
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
  every: realInterval,
};
