/**
 * Runs `run` when the browser's main thread is next idle, at the latest after `timeoutMs`; returns
 * a cancel. The chart and grid doors load Plotly and AG Grid this way after a first drawing
 * without them (apps/web/README.md, "Heavy libraries behind one door each").
 */
export function whenIdle(run: () => void, timeoutMs = 2000): () => void {
  if (typeof requestIdleCallback === "function") {
    const handle = requestIdleCallback(run, { timeout: timeoutMs });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(run, 1);
  return () => clearTimeout(handle);
}
