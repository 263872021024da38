import { dataTypes, recordTypes, signs, stockTypes, varianceTypes } from "@varia/contracts";
import { type Period, type PeriodKey, periodDefaultRange, periodIsKey, periodKey } from "@varia/period";

/**
 * The state of a dashboard view, as the address bar carries it (the query parameters of the
 * filter, apps/web/README.md "Filters in the URL"). `readViewFilter` normalises what it reads (a
 * value is matched without regard to case and written with a capital first letter; anything else
 * takes the default) and fills in the default periods from the actual periods; `viewFilterSearch`
 * writes a filter back. The URL alone reproduces a view.
 */
export type DataType = (typeof dataTypes)[number];
export type StockType = (typeof stockTypes)[number];
export type VarianceType = (typeof varianceTypes)[number];
export type Sign = (typeof signs)[number];
export type RecordType = (typeof recordTypes)[number];

export interface ViewFilter {
  dataType: DataType;
  /** The two compared months; null only when the organisation has no data yet. */
  dateFrom: PeriodKey | null;
  dateTo: PeriodKey | null;
  recordTypeFrom: RecordType;
  recordTypeTo: RecordType;
  periodType: "Monthly";
  stockType: StockType | null;
  /**
   * A client, item or salesperson by id; or, without the id, by the client's or item's code or the
   * salesperson's name (as the calls take them). With an id, the code or name is only shown.
   */
  clientID: string | null;
  client: string | null;
  stockItemID: string | null;
  stockItem: string | null;
  salespersonID: string | null;
  salesperson: string | null;
  /** Level 2: the variance type and sign listed. */
  varType: VarianceType | null;
  sign: Sign | null;
  /** Level 3: the client or service shown. */
  thirdClientID: string | null;
  thirdStockItemID: string | null;
  /** A series' bounds and length. */
  periodFrom: PeriodKey | null;
  periodTo: PeriodKey | null;
  trendPeriodCount: number;
  /**
   * The months of the cards that show the changes month by month: the year-end chart (level 1),
   * the step month by month (level 2) and a subject's history (level 3).
   */
  historyPeriodCount: number;
  rank: string | null;
  heatmap: string | null;
  report: string | null;
  segment: string | null;
  dimension: string | null;
  /**
   * Level 1's cards' own choices (apps/web/README.md, "The card system"): Variance by type's view,
   * the trend's ad hoc, the lost clients' order and the activity table's status.
   */
  typesView: string | null;
  trendInclude: string | null;
  lostOrder: string | null;
  activityStatus: string | null;
}

/** The parameters of the filter in the order they are written. */
export const viewFilterKeys = [
  "dataType",
  "dateFrom",
  "dateTo",
  "recordTypeFrom",
  "recordTypeTo",
  "periodType",
  "stockType",
  "clientID",
  "client",
  "stockItemID",
  "stockItem",
  "salespersonID",
  "salesperson",
  "varType",
  "sign",
  "thirdClientID",
  "thirdStockItemID",
  "periodFrom",
  "periodTo",
  "trendPeriodCount",
  "historyPeriodCount",
  "rank",
  "heatmap",
  "report",
  "segment",
  "dimension",
  "typesView",
  "trendInclude",
  "lostOrder",
  "activityStatus",
] as const satisfies readonly (keyof ViewFilter)[];

export const defaultTrendPeriodCount = 8;
export const defaultHistoryPeriodCount = 12;

function oneOf<const T extends readonly string[]>(values: T, value: string | null): T[number] | null {
  if (value === null) return null;
  const wanted = value.trim().toLowerCase();
  return values.find((v) => v.toLowerCase() === wanted) ?? null;
}

const id = (value: string | null) => (value !== null && /^\d{1,9}$/.test(value.trim()) ? value.trim() : null);
const text = (value: string | null) => {
  const trimmed = value?.trim();
  return trimmed ? trimmed.slice(0, 200) : null;
};
const month = (value: string | null) => {
  const trimmed = value?.trim() ?? "";
  return periodIsKey(trimmed) ? trimmed : null;
};

/** The dashboards' routes. */
export const viewPaths = {
  level1: "/variance/dashboard/stockTypeOverview",
  level2: "/variance/dashboard/positiveOrNegative",
  level3: "/variance/dashboard/specific",
  level4: "/variance/dashboard/invoice",
} as const;

/**
 * Level 2 lists one type and sign and, when the address names none, it lists new clients
 * (varType Client, sign Positive) of subscriptions (stockType Subscription). So that a link from a
 * view of every stock type keeps its totals, the address of level 2 says `stockType=All` for "no
 * stock-type filter" (read back as null); the other routes leave it out.
 */
export const level2Defaults = { stockType: "Subscription", varType: "Client", sign: "Positive" } as const;
const allStockTypes = "All";

/**
 * Reads a view's filter from the query string; the parameters' names are matched without regard to
 * case. `path` is the route it is read for: level 2 fills in its own defaults.
 */
export function readViewFilter(
  search: URLSearchParams | string,
  actualPeriods: readonly Period[],
  path?: string,
): ViewFilter {
  const params = new URLSearchParams(search);
  const byName = new Map<string, string>();
  for (const [key, value] of params) {
    const lower = key.toLowerCase();
    if (!byName.has(lower)) byName.set(lower, value);
  }
  const get = (key: string) => byName.get(key.toLowerCase()) ?? null;
  const range = periodDefaultRange(actualPeriods);
  const dateTo = month(get("dateTo")) ?? (range ? periodKey(range.dateTo) : null);
  const dateFrom = month(get("dateFrom")) ?? (range ? periodKey(range.dateFrom) : null);
  const periodCount = (name: string, fallback: number) => {
    const count = Number(get(name));
    return Number.isInteger(count) && count >= 1 && count <= 500 ? count : fallback;
  };
  const level2 = path === viewPaths.level2;
  const stockTypeParam = get("stockType");
  const stockType =
    level2 && stockTypeParam === null ? level2Defaults.stockType : oneOf(stockTypes, stockTypeParam);
  return {
    dataType: oneOf(dataTypes, get("dataType")) ?? "Revenue",
    dateFrom,
    dateTo,
    recordTypeFrom: oneOf(recordTypes, get("recordTypeFrom")) ?? "Actual",
    recordTypeTo: oneOf(recordTypes, get("recordTypeTo")) ?? "Actual",
    periodType: "Monthly",
    stockType,
    clientID: id(get("clientID")),
    client: text(get("client")),
    stockItemID: id(get("stockItemID")),
    stockItem: text(get("stockItem")),
    salespersonID: id(get("salespersonID")),
    salesperson: text(get("salesperson")),
    varType: oneOf(varianceTypes, get("varType")) ?? (level2 ? level2Defaults.varType : null),
    sign: oneOf(signs, get("sign")) ?? (level2 ? level2Defaults.sign : null),
    thirdClientID: id(get("thirdClientID")),
    thirdStockItemID: id(get("thirdStockItemID")),
    periodFrom: month(get("periodFrom")),
    periodTo: month(get("periodTo")),
    trendPeriodCount: periodCount("trendPeriodCount", defaultTrendPeriodCount),
    historyPeriodCount: periodCount("historyPeriodCount", defaultHistoryPeriodCount),
    rank: text(get("rank")),
    heatmap: text(get("heatmap")),
    report: text(get("report")),
    segment: text(get("segment")),
    dimension: text(get("dimension")),
    typesView: text(get("typesView")),
    trendInclude: text(get("trendInclude")),
    lostOrder: text(get("lostOrder")),
    activityStatus: text(get("activityStatus")),
  };
}

/** The value a parameter takes when it is not in the address. */
const defaults: Partial<Record<keyof ViewFilter, string | number>> = {
  dataType: "Revenue",
  recordTypeFrom: "Actual",
  recordTypeTo: "Actual",
  periodType: "Monthly",
  trendPeriodCount: defaultTrendPeriodCount,
  historyPeriodCount: defaultHistoryPeriodCount,
};

/**
 * The query string of a filter. The two periods are always written, so that the address names the
 * months it compares even after newer data arrives; other parameters only when they differ from
 * their default. For level 2 (`path`), no stock-type filter is written `stockType=All`.
 */
export function viewFilterSearch(filter: ViewFilter, path?: string): string {
  const params = new URLSearchParams();
  for (const key of viewFilterKeys) {
    const value = filter[key];
    if (key === "stockType" && value === null && path === viewPaths.level2) {
      params.set(key, allStockTypes);
      continue;
    }
    if (value === null || value === undefined) continue;
    if (key !== "dateFrom" && key !== "dateTo" && defaults[key] === value) continue;
    params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `?${search}` : "";
}

/** A filter with some parameters changed; a null removes one. */
export function withFilter(filter: ViewFilter, changes: Partial<ViewFilter>): ViewFilter {
  return { ...filter, ...changes };
}

/** The address of another view with this filter (and changes): how every figure links to what explains it. */
export function viewHref(path: string, filter: ViewFilter, changes: Partial<ViewFilter> = {}): string {
  return `${path}${viewFilterSearch(withFilter(filter, changes), path)}`;
}

/**
 * The filter fields every analytics call takes (the calls' own query names). The client and service
 * a view is about (thirdClientID, thirdStockItemID: levels 3 and 4) narrow every call as a client or
 * service filter does.
 */
export function analyticsQuery(view: ViewFilter) {
  const filter = {
    ...view,
    clientID: view.thirdClientID ?? view.clientID,
    client: view.thirdClientID ? null : view.client,
    stockItemID: view.thirdStockItemID ?? view.stockItemID,
    stockItem: view.thirdStockItemID ? null : view.stockItem,
  };
  return {
    dataType: filter.dataType,
    ...(filter.dateFrom ? { dateFrom: filter.dateFrom } : {}),
    ...(filter.dateTo ? { dateTo: filter.dateTo } : {}),
    recordTypeFrom: filter.recordTypeFrom,
    recordTypeTo: filter.recordTypeTo,
    ...(filter.stockType ? { stockType: filter.stockType } : {}),
    ...(filter.clientID ? { clientID: filter.clientID } : filter.client ? { client: filter.client } : {}),
    ...(filter.stockItemID
      ? { stockItemID: filter.stockItemID }
      : filter.stockItem
        ? { stockItem: filter.stockItem }
        : {}),
    ...(filter.salespersonID
      ? { salespersonID: filter.salespersonID }
      : filter.salesperson
        ? { salesperson: filter.salesperson }
        : {}),
  };
}

/**
 * The ids of `analyticsQuery` alone (client, service, salesperson, narrowed to the view's subject),
 * for the calls that name their months, data type and stock type in their own capitalised fields.
 */
export function analyticsIds(view: ViewFilter) {
  const { dataType, dateFrom, dateTo, recordTypeFrom, recordTypeTo, stockType, ...ids } =
    analyticsQuery(view);
  return ids;
}
