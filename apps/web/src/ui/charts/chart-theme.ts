/** The charts' colours and sizes: one palette for every chart (no Plotly import here). */
export const chartColors = {
  brand: "#4f46e5",
  brandSoft: "#a5b4fc",
  positive: "#16a34a",
  negative: "#dc2626",
  ink: "#0f172a",
  inkSoft: "#475569",
  grid: "#e2e8f0",
  /** One hue per variance type; the sign is where the bar stands (above or below zero). */
  types: {
    Client: "#4f46e5",
    Service: "#0ea5e9",
    Price: "#f59e0b",
    Volume: "#10b981",
    Usage: "#8b5cf6",
    Transfer: "#64748b",
  } as Record<string, string>,
  /** Slices of a donut, in order. */
  slices: ["#4f46e5", "#0ea5e9", "#10b981", "#f59e0b", "#8b5cf6", "#ec4899", "#64748b", "#14b8a6", "#f97316"],
} as const;

export const chartFont = {
  family: 'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  size: 12,
  color: chartColors.inkSoft,
};

/**
 * Tick values for an axis from lo to hi: about `count` round steps (1, 2 or 5 times a power of ten),
 * so that the door can write each tick itself (in the organisation's currency).
 */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  if (lo === hi) return [lo];
  const [min, max] = lo < hi ? [lo, hi] : [hi, lo];
  const raw = (max - min) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power) || 1;
  const ticks: number[] = [];
  for (let t = Math.ceil(min / step) * step; t <= max + step * 1e-9; t += step) {
    ticks.push(Math.round(t / step) * step);
  }
  return ticks;
}
