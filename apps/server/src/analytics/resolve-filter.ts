import type { AnalyticsFilter } from "@varia/contracts";
import { periodFormat, periodFromMonthIndex, periodMonthIndex, periodParse } from "@varia/period";
import type { Cube, MonthIndex, RecordType, StockType, VarianceQuery, VarianceType } from "@varia/variance";
import { AppError } from "../errors";
import type { Analysis } from "./cube-cache";

/** Lookups of codes and names of a cube, built once per cube. */
interface CubeIndex {
  clientByCode: Map<string, number>;
  itemByCode: Map<string, number>;
  salespersonByName: Map<string, number>;
}

const indexes = new WeakMap<Cube, CubeIndex>();

function indexOf(cube: Cube): CubeIndex {
  let index = indexes.get(cube);
  if (!index) {
    index = {
      clientByCode: new Map([...cube.clients.values()].map((c) => [c.code.toLowerCase(), c.id])),
      itemByCode: new Map([...cube.items.values()].map((i) => [i.code.toLowerCase(), i.id])),
      salespersonByName: new Map([...cube.salespeople.values()].map((s) => [s.name.toLowerCase(), s.id])),
    };
    indexes.set(cube, index);
  }
  return index;
}

export function monthOf(yearMonth: string): MonthIndex {
  return periodMonthIndex(periodParse(yearMonth));
}

export function yearMonthOf(month: MonthIndex): string {
  return periodFormat(periodFromMonthIndex(month), "yearMonth");
}

/** The latest month with Actual data up to the current month (prepaid lines reach into the future). */
export function latestActualMonth(cube: Cube, now: Date): MonthIndex {
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  const months = cube.months("Actual").filter((m) => m <= current);
  return months.at(-1) ?? current;
}

function resolveId(
  index: Map<string, number>,
  value: string | undefined,
  field: string,
  what: string,
): number | undefined {
  if (value === undefined) return undefined;
  const id = index.get(value.toLowerCase());
  if (id === undefined) {
    throw new AppError("BadRequest", `Invalid query: ${field}`, [
      { field, message: `no ${what} '${value}'` },
    ]);
  }
  return id;
}

export interface ResolvedFilter extends VarianceQuery {
  varType?: VarianceType;
  sign?: "Positive" | "Negative";
}

/**
 * What the organisation's active exclusion lists leave out, as the engine takes it. Every engine
 * query of a route is made by `resolveFilter` or `resolveReportInput`, and both start from this.
 */
export function exclusionFilter(
  analysis: Analysis,
): Pick<VarianceQuery, "excludedClientIds" | "excludedItemIds"> {
  const { clientIds, itemIds } = analysis.excluded;
  return {
    ...(clientIds.size ? { excludedClientIds: clientIds } : {}),
    ...(itemIds.size ? { excludedItemIds: itemIds } : {}),
  };
}

/**
 * The engine query of a call's filter fields: months from dateFrom/dateTo (defaults: the latest
 * actual month and the month before), ids from ids or codes, and the exclusions of the active lists.
 * Ids of another organisation match nothing, since the cube holds only the caller's organisation.
 * (The excluded ids are Sets, which JSON leaves out of a memo key: results are kept per analysis,
 * which is new whenever the exclusions change.)
 */
export function resolveFilter(
  analysis: Analysis,
  filter: Partial<AnalyticsFilter> & { dataType?: "Revenue" | "Margin" },
  now: Date,
  overrides: { dateFrom?: string; dateTo?: string } = {},
): ResolvedFilter {
  const { cube } = analysis;
  const index = indexOf(cube);
  const dateTo = overrides.dateTo ?? filter.dateTo;
  const dateFrom = overrides.dateFrom ?? filter.dateFrom;
  const to = dateTo ? monthOf(dateTo) : latestActualMonth(cube, now);
  const from = dateFrom ? monthOf(dateFrom) : to - 1;
  const number = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  const query: ResolvedFilter = {
    dataType: filter.dataType ?? "Revenue",
    from,
    to,
    recordTypeFrom: (filter.recordTypeFrom ?? "Actual") as RecordType,
    recordTypeTo: (filter.recordTypeTo ?? "Actual") as RecordType,
    ...exclusionFilter(analysis),
  };
  const stockType = filter.stockType as StockType | undefined;
  if (stockType) query.stockType = stockType;
  const clientId =
    number(filter.clientID) ?? resolveId(index.clientByCode, filter.client, "client", "client");
  if (clientId !== undefined) query.clientId = clientId;
  const itemId =
    number(filter.stockItemID) ?? resolveId(index.itemByCode, filter.stockItem, "stockItem", "item");
  if (itemId !== undefined) query.itemId = itemId;
  const salespersonId =
    number(filter.salespersonID) ??
    resolveId(index.salespersonByName, filter.salesperson, "salesperson", "salesperson");
  if (salespersonId !== undefined) query.salespersonId = salespersonId;
  if (filter.showAdhoc) query.showAdhoc = true;
  if (filter.varType) query.varType = filter.varType;
  if (filter.sign) query.sign = filter.sign;
  return query;
}

/**
 * Results computed for an analysis (or a cube), reused while it is current: the cube cache makes a
 * new Analysis when the data or the exclusion lists change, so no result outlives what it was
 * computed from. A least-recently-used map per owner, bounded by entries and by weight (the rows a
 * result holds), so a tenant's large tables do not pile up in memory.
 */
const memos = new WeakMap<
  object,
  { entries: Map<string, { value: unknown; weight: number }>; weight: number }
>();
const memoLimit = 256;
const memoWeightLimit = 500_000;

export function memo<T>(
  owner: Analysis | Cube,
  key: string,
  compute: () => T,
  weigh: (value: T) => number = () => 1,
): T {
  let memory = memos.get(owner);
  if (!memory) {
    memory = { entries: new Map(), weight: 0 };
    memos.set(owner, memory);
  }
  const { entries } = memory;
  const hit = entries.get(key);
  if (hit) {
    entries.delete(key);
    entries.set(key, hit);
    return hit.value as T;
  }
  const value = compute();
  const weight = Math.max(1, weigh(value));
  entries.set(key, { value, weight });
  memory.weight += weight;
  while (entries.size > 1 && (entries.size > memoLimit || memory.weight > memoWeightLimit)) {
    const [oldest, entry] = entries.entries().next().value!;
    entries.delete(oldest);
    memory.weight -= entry.weight;
  }
  return value;
}

/**
 * `memo` of a value a query computes: concurrent callers share the pending answer, and one that
 * fails is forgotten, so that the next call asks again.
 */
export function memoQuery<T>(owner: Analysis, key: string, compute: () => Promise<T>): Promise<T> {
  return memo(owner, key, () => {
    const pending = compute();
    pending.catch(() => {
      const memory = memos.get(owner);
      const entry = memory?.entries.get(key);
      if (memory && entry?.value === pending) {
        memory.entries.delete(key);
        memory.weight -= entry.weight;
      }
    });
    return pending;
  });
}
