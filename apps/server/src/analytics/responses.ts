import type { AnalyticsFilter } from "@varia/contracts";
import {
  type ByType,
  type Cube,
  compareSegments,
  type Kpis,
  type PairLine,
  type Segment,
  type SegmentValue,
  type TrendPoint,
  varianceTypeOrder,
} from "@varia/variance";
import { yearMonthOf } from "./resolve-filter";

/** Engine results as the contracts carry them: cents in `...Cents` fields, year-month periods. */
export function byTypeCents(byType: ByType) {
  const out = {} as Record<
    (typeof varianceTypeOrder)[number],
    { positiveCents: number; negativeCents: number }
  >;
  for (const type of varianceTypeOrder) {
    out[type] = { positiveCents: byType[type].positive, negativeCents: byType[type].negative };
  }
  return out;
}

const badgeOfStatus = { Existing: "existing", Added: "added", Removed: "removed", Adhoc: "adhoc" } as const;

export function activityRow(cube: Cube, line: PairLine) {
  const client = cube.clients.get(line.clientId);
  const item = cube.items.get(line.itemId);
  const row = {
    clientID: line.clientId,
    clientCode: client?.code ?? "",
    clientName: client?.name ?? "",
    stockItemID: line.itemId,
    itemCode: item?.code ?? "",
    itemName: item?.name ?? "",
    stockType: item?.stockType ?? "",
    salespersonID: line.salespersonId,
    salesperson: cube.salespeople.get(line.salespersonId)?.name ?? "",
    valueCents: line.to,
    valueCentsVariance: line.variance,
    valueFromCents: line.from,
    quantityFrom: line.quantityFrom / 10_000,
    quantityTo: line.quantityTo / 10_000,
    parts: line.parts as Record<string, number>,
    status: line.status,
    badgeVariant: line.clientBadge ?? badgeOfStatus[line.status],
    ...(line.clientBadge ? { clientBadge: line.clientBadge } : {}),
  };
  return row;
}

export function kpiResponse(kpis: Kpis, from: number, to: number, adhoc?: number) {
  return {
    periodFrom: yearMonthOf(from),
    periodTo: yearMonthOf(to),
    mrrCents: kpis.mrr,
    arrCents: kpis.arr,
    mrrFromCents: kpis.mrrFrom,
    mrrCentsVariance: kpis.mrr - kpis.mrrFrom,
    arrFromCents: kpis.arrFrom,
    clientsSubscribed: kpis.clientsSubscribed,
    clientsSubscribedFrom: kpis.clientsSubscribedFrom,
    arpaCents: kpis.arpa,
    arpaFromCents: kpis.arpaFrom,
    newMrrCents: kpis.newMrr,
    churnedMrrCents: kpis.churnedMrr,
    expansionMrrCents: kpis.expansionMrr,
    contractionMrrCents: kpis.contractionMrr,
    grr: kpis.grr,
    nrr: kpis.nrr,
    ...(adhoc === undefined ? {} : { adhocCents: adhoc }),
  };
}

export function seriesPoint(point: TrendPoint) {
  return {
    period: yearMonthOf(point.month),
    totalCents: point.total,
    ...(point.adhoc === undefined ? {} : { adhocCents: point.adhoc }),
    ...(point.byType ? { byType: byTypeCents(point.byType) } : {}),
  };
}

/**
 * Segments as the contracts carry them; with the earlier month's, compared by the engine
 * (`compareSegments`: a segment the later month has not got is kept at 0, so the changes add up).
 */
export function segmentRows(
  segment: Segment,
  to: SegmentValue[],
  from?: SegmentValue[],
): {
  key: string;
  label: string;
  valueCents: number;
  share: number;
  valueCentsVariance?: number;
  valueFromCents?: number;
}[] {
  if (!from) return to.map((s) => ({ key: s.key, label: s.label, valueCents: s.value, share: s.share }));
  return compareSegments(to, from, segment).map((s) => ({
    key: s.key,
    label: s.label,
    valueCents: s.value,
    share: s.share,
    valueCentsVariance: s.change,
    valueFromCents: s.from,
  }));
}

/** The segment a call asks for (segment or dimension), stockType when none or unknown. */
export function segmentOf(
  filter: Partial<AnalyticsFilter>,
): "stockType" | "salesperson" | "item" | "clientSize" {
  const wanted = (filter.segment ?? filter.dimension ?? "").toLowerCase().replace(/[^a-z]/g, "");
  if (wanted === "salesperson" || wanted === "responsibleperson") return "salesperson";
  if (wanted === "item" || wanted === "sku" || wanted === "stockitem" || wanted === "service") return "item";
  if (wanted === "clientsize" || wanted === "size" || wanted === "band") return "clientSize";
  return "stockType";
}

export interface TableQuery {
  startRow: number;
  rowLimit: number;
  sortBy?: string | undefined;
  sortDir: "asc" | "desc";
  search?: string | undefined;
}

/** The rows whose text fields contain the search text (case-insensitive); all without one. */
export function searchRows<R extends Record<string, unknown>>(
  rows: R[],
  search: string | undefined,
  searchFields: (keyof R)[],
): R[] {
  const text = search?.trim().toLowerCase();
  if (!text) return rows;
  return rows.filter((row) =>
    searchFields.some((f) =>
      String(row[f] ?? "")
        .toLowerCase()
        .includes(text),
    ),
  );
}

/** A row's value of a sort field: a field of the row, or one part of an object field (`parts.Price`). */
function sortField<R extends Record<string, unknown>>(
  sample: R,
  sortBy: string,
): ((row: R) => unknown) | null {
  if (sortBy in sample) return (row) => row[sortBy];
  const [field, part, ...rest] = sortBy.split(".");
  if (!field || !part || rest.length || !(field in sample)) return null;
  const value = sample[field];
  if (value === null || typeof value !== "object") return null;
  return (row) => (row[field] as Record<string, unknown> | undefined)?.[part] ?? 0;
}

/**
 * Server-side table work: a text search over the row's text fields, sorting by a field the row has
 * or a part of one (`parts.Price`; default order kept when none), and the page
 * [startRow, startRow + rowLimit).
 */
export function pageRows<R extends Record<string, unknown>>(
  rows: R[],
  query: TableQuery,
  searchFields: (keyof R)[],
) {
  let result = searchRows(rows, query.search, searchFields);
  const value = query.sortBy && result.length ? sortField(result[0]!, query.sortBy) : null;
  if (value) {
    const direction = query.sortDir === "asc" ? 1 : -1;
    result = [...result].sort((a, b) => {
      const x = value(a);
      const y = value(b);
      const order =
        typeof x === "number" && typeof y === "number"
          ? x - y
          : String(x ?? "").localeCompare(String(y ?? ""));
      return order * direction;
    });
  }
  return {
    rows: result.slice(query.startRow, query.startRow + query.rowLimit),
    rowCount: result.length,
    startRow: query.startRow,
  };
}
