/** The chart series of docs/methodology.md#charts, every one computed from `variance`. */
import type { Cube, MonthIndex } from "./cube";
import type { Cents, VarianceType } from "./decompose";
import {
  type ByType,
  clientOwners,
  emptyByType,
  readTwoMonths,
  type Sign,
  type VarianceFilter,
  type VarianceQuery,
  variance,
  varianceTypeOrder,
} from "./query";

export interface TrendPoint {
  month: MonthIndex;
  total: Cents;
  adhoc?: Cents;
  byType?: ByType;
}

/**
 * Whether a month's change against the month before is no movement but where the data starts: the
 * first month with data of the record type compared from, or one before it (docs/methodology.md,
 * "Charts"). Against the empty month before it, every client would be new.
 */
export function startsTheData(cube: Cube, filter: VarianceFilter, month: MonthIndex): boolean {
  const first = cube.months(filter.recordTypeFrom ?? "Actual")[0];
  return first === undefined || month <= first;
}

/**
 * The total of each of the `periodCount` months ending at `periodTo` (default 8), oldest first;
 * with `byType`, the types of each month against the one before (none where the data starts).
 */
export function trend(
  cube: Cube,
  filter: VarianceFilter & { periodTo: MonthIndex; periodCount?: number; byType?: boolean },
): TrendPoint[] {
  const count = filter.periodCount ?? 8;
  const points: TrendPoint[] = [];
  for (let month = filter.periodTo - count + 1; month <= filter.periodTo; month++) {
    const result = variance(cube, { ...filter, from: month - 1, to: month, detail: "summary" });
    const point: TrendPoint = { month, total: result.totalTo };
    if (filter.showAdhoc) point.adhoc = result.adhocTo ?? 0;
    if (filter.byType) point.byType = startsTheData(cube, filter, month) ? emptyByType() : result.byType;
    points.push(point);
  }
  return points;
}

export interface WaterfallStep {
  label: string;
  kind: "total" | "step";
  type?: VarianceType;
  sign?: Sign;
  value: Cents;
}

/** Start total (F), one step per type and sign with a value, end total (T). */
export function waterfall(cube: Cube, query: VarianceQuery): WaterfallStep[] {
  const result = variance(cube, { ...query, detail: "summary" });
  const steps: WaterfallStep[] = [{ label: "Start", kind: "total", value: result.totalFrom }];
  for (const type of varianceTypeOrder) {
    for (const sign of ["Positive", "Negative"] as const) {
      const value = result.byType[type][sign === "Positive" ? "positive" : "negative"];
      if (value !== 0)
        steps.push({ label: `${type} ${sign.toLowerCase()}`, kind: "step", type, sign, value });
    }
  }
  steps.push({ label: "End", kind: "total", value: result.totalTo });
  return steps;
}

export interface ChristmasPoint {
  month: MonthIndex;
  byType: ByType;
  /** The change against the month before. */
  net: Cents;
  /** The month is where the data starts (or before it): no change is counted (startsTheData). */
  startsTheData: boolean;
}

/**
 * For each month from periodFrom to periodTo, the variance against the month before: none in the
 * months where the data starts (startsTheData).
 */
export function christmas(
  cube: Cube,
  filter: VarianceFilter & { periodFrom: MonthIndex; periodTo: MonthIndex },
): ChristmasPoint[] {
  const points: ChristmasPoint[] = [];
  for (let month = filter.periodFrom; month <= filter.periodTo; month++) {
    if (startsTheData(cube, filter, month)) {
      points.push({ month, byType: emptyByType(), net: 0, startsTheData: true });
      continue;
    }
    const result = variance(cube, { ...filter, from: month - 1, to: month, detail: "summary" });
    points.push({
      month,
      byType: result.byType,
      net: result.totalTo - result.totalFrom,
      startsTheData: false,
    });
  }
  return points;
}

export type Segment = "stockType" | "salesperson" | "item" | "clientSize";

export interface SegmentValue {
  key: string;
  label: string;
  value: Cents;
  /** Share of the total (0.25 = 25 %). */
  share: number;
}

/** Client size bands by the client's MRR in the month, in major units. */
export const clientSizeBands = [
  { key: "under-100", label: "Under 100", upTo: 10_000 },
  { key: "100-499", label: "100 to 499", upTo: 50_000 },
  { key: "500-1999", label: "500 to 1,999", upTo: 200_000 },
  { key: "2000-plus", label: "2,000 and over", upTo: Number.POSITIVE_INFINITY },
] as const;

/**
 * The month's total split by stock type, salesperson (its owner,
 * docs/methodology.md#salespeople-and-transfer), item or client size band.
 */
export function revenueBySegment(
  cube: Cube,
  filter: VarianceFilter & { month: MonthIndex; segment: Segment },
): SegmentValue[] {
  const query = { ...filter, salespersonId: undefined, from: filter.month, to: filter.month };
  const months = readTwoMonths(cube, query);
  const result = variance(cube, { ...query, salespersonId: filter.salespersonId });
  const sums = new Map<string, { label: string; value: number; order: number }>();
  const add = (key: string, label: string, value: number, order = 0) => {
    const entry = sums.get(key) ?? { label, value: 0, order };
    entry.value += value;
    sums.set(key, entry);
  };
  const clientTotals = new Map<number, number>();
  for (const line of result.lines) {
    if (line.status !== "Adhoc")
      clientTotals.set(line.clientId, (clientTotals.get(line.clientId) ?? 0) + line.to);
  }
  for (const line of result.lines) {
    if (line.status === "Adhoc" || line.to === 0) continue;
    const item = cube.items.get(line.itemId);
    if (filter.segment === "stockType") add(item?.stockType ?? "", item?.stockType ?? "", line.to);
    else if (filter.segment === "item")
      add(item?.code ?? String(line.itemId), item?.name || item?.code || "", line.to);
    else if (filter.segment === "salesperson") {
      const client = months.clients.get(line.clientId);
      const owner = client ? clientOwners(cube, client).t : 0;
      add(String(owner), cube.salespeople.get(owner)?.name ?? "No salesperson", line.to);
    } else {
      const size = clientTotals.get(line.clientId) ?? 0;
      const band = clientSizeBands.findIndex((b) => size < b.upTo);
      const { key, label } = clientSizeBands[band]!;
      add(key, label, line.to, band);
    }
  }
  const total = [...sums.values()].reduce((sum, s) => sum + s.value, 0);
  return [...sums]
    .map(([key, s]) => ({
      key,
      label: s.label,
      value: s.value,
      share: total === 0 ? 0 : s.value / total,
      order: s.order,
    }))
    .sort((a, b) =>
      filter.segment === "clientSize"
        ? a.order - b.order
        : b.value - a.value || a.label.localeCompare(b.label),
    )
    .map(({ order: _order, ...rest }) => rest);
}

export interface SegmentComparison extends SegmentValue {
  /** The segment's value in the earlier month (0 when it had none). */
  from: Cents;
  /** value - from. */
  change: Cents;
}

/**
 * The segments of the later month (`to`) with each one's value in the earlier month (`from`), followed
 * by the segments of the earlier month that the later one has not got, at 0 (a salesperson whose
 * clients all left, a size band no client is in any more): so that the values, the earlier values
 * and the changes each add up to the totals and the change of the total (docs/methodology.md, "Charts").
 * Client size bands stay in their order.
 */
export function compareSegments(
  to: readonly SegmentValue[],
  from: readonly SegmentValue[],
  segment: Segment,
): SegmentComparison[] {
  const before = new Map(from.map((s) => [s.key, s.value]));
  const later = new Set(to.map((s) => s.key));
  const rows: SegmentComparison[] = [
    ...to.map((s) => ({ ...s, from: before.get(s.key) ?? 0, change: s.value - (before.get(s.key) ?? 0) })),
    ...from
      .filter((s) => !later.has(s.key))
      .map((s) => ({ key: s.key, label: s.label, value: 0, share: 0, from: s.value, change: -s.value })),
  ];
  if (segment !== "clientSize") return rows;
  const band = (key: string) => clientSizeBands.findIndex((b) => b.key === key);
  return rows.sort((a, b) => band(a.key) - band(b.key));
}
