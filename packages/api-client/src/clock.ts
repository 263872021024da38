/** Time as the client sees it; tests pass a simulated one, so retries and expiry need no waiting. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Calls `fn` every `ms`; returns a function that stops it. */
  every(ms: number, fn: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(resolve, ms);
      signal?.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    }),
  every: (ms, fn) => {
    const timer = setInterval(fn, ms);
    (timer as { unref?: () => void }).unref?.();
    return () => clearInterval(timer);
  },
};
