/**
 * A progress display that redraws at most every `ms` (a terminal need not see every chunk):
 * `update` draws now or holds the values back, `flush` draws the last values held back.
 */
export function throttled<A extends unknown[]>(draw: (...args: A) => void, ms = 100) {
  let last = Number.NEGATIVE_INFINITY;
  let pending: A | undefined;
  return {
    update(...args: A) {
      const now = performance.now();
      if (now - last < ms) {
        pending = args;
        return;
      }
      last = now;
      pending = undefined;
      draw(...args);
    },
    flush() {
      if (pending) draw(...pending);
      pending = undefined;
    },
  };
}
