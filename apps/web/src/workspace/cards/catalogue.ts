import {
  activityTableGet,
  type CardHelpKey,
  christmasChart,
  gridGeneralKpi,
  lostRankContributionKpi,
  overviewKpi,
  powerfulBar,
  type ResponseOf,
  trendChart,
  varianceBars,
  waterfallChart,
} from "@varia/contracts";
import {
  type PeriodKey,
  periodFormat,
  periodFromKey,
  periodFromMonthIndex,
  periodKey,
  periodMonthIndex,
} from "@varia/period";
import { createFormat } from "../../ui/format/format";
import { analyticsIds, analyticsQuery } from "../filters/view-filter";
import { marginPrefix, measureName } from "../variance-labels";
import { callShared, loadCall } from "./card-call";
import type { AnyCardDefinition, CardDefinition, CardQueryContext } from "./card-types";
import { forecastCards } from "./forecast-cards";
import { level2Cards } from "./level-2-cards";
import { level3Cards } from "./level-3-cards";
import { level4Cards } from "./level-4-cards";
import {
  ActivityRenderer,
  activityBadgeOptions,
  activityPageSize,
  activityQuery,
} from "./renderers/ActivityRenderer";
import { ChristmasRenderer } from "./renderers/ChristmasRenderer";
import { type ClientListData, ClientListRenderer } from "./renderers/ClientListRenderer";
import { type KpiData, KpiRenderer } from "./renderers/KpiRenderer";
import { SegmentRenderer, segmentOptions } from "./renderers/SegmentRenderer";
import { TrendRenderer } from "./renderers/TrendRenderer";
import { type VarianceByTypeData, VarianceByTypeRenderer } from "./renderers/VarianceByTypeRenderer";
import { WaterfallRenderer } from "./renderers/WaterfallRenderer";
import { searchParam } from "./search-param";

/*
 * The card catalogue: every card a dashboard page can show, as data. A page lists card ids in a
 * layout (level-1-layout.ts); one <Card> frame runs each. Each entry names its call and builds the
 * call's input from the page's filter and the card's period, toggle and search.
 */

const month = (key: string | null) => (key ? periodFormat(periodFromKey(key)) : "");
const durations = createFormat({ forcedLocale: "en-US" });

/** The first month of a series of `count` months ending at `to`. */
function seriesStart(to: PeriodKey, count: number): PeriodKey {
  return periodKey(periodFromMonthIndex(periodMonthIndex(periodFromKey(to)) - (count - 1)));
}

/** The filter fields the calls with their own (PascalCase) parameters take as they are. */
const comparedMonths = ({ filter }: CardQueryContext) =>
  `${month(filter.dateFrom)} → ${month(filter.dateTo)}`;
const laterMonth = ({ filter }: CardQueryContext) =>
  `${marginPrefix(filter.dataType)}${month(filter.dateTo)}`;

// --- KPIs ------------------------------------------------------------------------------------------

type Kpis = ResponseOf<typeof overviewKpi>;

function kpiCard(
  id: string,
  heading: string,
  helpKey: CardHelpKey,
  kind: KpiData["kind"],
  pick: (k: Kpis) => { value: number; from: number },
): CardDefinition<KpiData> {
  return {
    id,
    heading,
    helpKey,
    contract: overviewKpi,
    load: loadCall({
      contract: overviewKpi,
      input: ({ filter }) => ({ query: analyticsQuery(filter) }),
      select: (k, { filter }) => ({ kind, ...pick(k), fromLabel: month(filter.dateFrom) }),
    }),
    render: KpiRenderer,
    expandable: false,
    subtitle: laterMonth,
  };
}

/**
 * NRR and GRR: the ratio of the compared months, and for its change the same ratio over the window
 * of the same length just before (e.g. Aug → Sep against Sep → Oct).
 */
function retentionCard(id: "nrr" | "grr", heading: string): CardDefinition<KpiData> {
  return {
    id,
    heading,
    helpKey: id,
    contract: overviewKpi,
    load: async ({ filter }) => {
      if (!filter.dateFrom || !filter.dateTo) return null;
      const from = periodMonthIndex(periodFromKey(filter.dateFrom));
      const to = periodMonthIndex(periodFromKey(filter.dateTo));
      const span = to - from;
      const before =
        span > 0
          ? {
              ...filter,
              dateFrom: periodKey(periodFromMonthIndex(from - span)),
              dateTo: filter.dateFrom,
            }
          : null;
      const [now, earlier] = await Promise.all([
        callShared(overviewKpi, { query: analyticsQuery(filter) }),
        before ? callShared(overviewKpi, { query: analyticsQuery(before) }) : Promise.resolve(null),
      ]);
      const value = now[id];
      if (value === null) return null;
      const previous = earlier?.[id] ?? null;
      return {
        kind: "percent",
        value,
        from: previous,
        fromLabel: before ? `${month(before.dateFrom)} → ${month(before.dateTo)}` : "",
      };
    },
    render: KpiRenderer,
    expandable: false,
    subtitle: comparedMonths,
  };
}

// --- Charts ----------------------------------------------------------------------------------------

const waterfall: CardDefinition<ResponseOf<typeof waterfallChart>["steps"]> = {
  id: "waterfall",
  heading: "Waterfall",
  helpKey: "waterfallChart",
  contract: waterfallChart,
  load: loadCall({
    contract: waterfallChart,
    input: ({ filter }) => ({
      query: {
        ...analyticsIds(filter),
        DataType: filter.dataType,
        DateFrom: filter.dateFrom ?? "",
        DateTo: filter.dateTo ?? "",
        RecordTypeFrom: filter.recordTypeFrom,
        RecordTypeTo: filter.recordTypeTo,
        StockType: filter.stockType ?? "",
        PeriodFrom: filter.dateFrom ?? "",
        PeriodTo: filter.dateTo ?? "",
        RecordType: filter.recordTypeTo,
      },
    }),
    select: (r) => (r.steps.every((s) => s.valueCents === 0) ? null : r.steps),
  }),
  render: WaterfallRenderer,
  expandable: true,
  subtitle: (c) => `${measureName(c.filter.dataType)}, ${comparedMonths(c)}`,
};

const varianceByType: CardDefinition<VarianceByTypeData> = {
  id: "varianceByType",
  heading: "Variance by type",
  helpKey: "varianceTypes",
  contract: powerfulBar,
  toggle: {
    label: "Show",
    options: [
      { value: "types", label: "Types" },
      { value: "contributors", label: "Top contributors" },
    ],
    param: "typesView",
  },
  load: async (context) => {
    if (context.toggle === "contributors") {
      const r = await callShared(varianceBars, {
        query: { ...analyticsQuery(context.filter), startRow: 0, rowLimit: 10 },
      });
      return r.rows.length ? { view: "contributors", rows: r.rows, rowCount: r.rowCount } : null;
    }
    const r = await callShared(powerfulBar, { query: analyticsQuery(context.filter) });
    const any = Object.values(r.byType).some((t) => t.positiveCents !== 0 || t.negativeCents !== 0);
    return any ? { view: "types", byType: r.byType } : null;
  },
  render: VarianceByTypeRenderer,
  expandable: true,
  subtitle: comparedMonths,
};

const trend: CardDefinition<ResponseOf<typeof trendChart>["points"]> = {
  id: "trend",
  heading: "Trend",
  helpKey: "trendChart",
  contract: trendChart,
  periodOptions: "monthsDefault8",
  periodParam: "trendPeriodCount",
  toggle: {
    label: "Include",
    options: [
      { value: "mrr", label: "MRR" },
      { value: "adhoc", label: "With ad hoc" },
    ],
    param: "trendInclude",
  },
  load: loadCall({
    contract: trendChart,
    input: ({ filter, period, toggle }) => ({
      query: {
        ...analyticsIds(filter),
        ...(filter.stockType ? { stockType: filter.stockType } : {}),
        DataType: filter.dataType,
        PeriodFrom: seriesStart(filter.dateTo as PeriodKey, period),
        PeriodTo: filter.dateTo ?? "",
        RecordType: filter.recordTypeTo,
        PeriodMode: filter.periodType,
        RecordTypeFrom: filter.recordTypeFrom,
        RecordTypeTo: filter.recordTypeTo,
        ShowAdhoc: toggle === "adhoc" ? "true" : "false",
        PeriodCount: period,
      },
    }),
    select: (r) => (r.points.length ? r.points : null),
  }),
  render: TrendRenderer,
  expandable: true,
  subtitle: ({ filter, period }) =>
    `${marginPrefix(filter.dataType)}${durations.duration(period)} to ${month(filter.dateTo)}`,
};

const christmas: CardDefinition<ResponseOf<typeof christmasChart>["points"]> = {
  id: "christmas",
  heading: "Year-end chart",
  helpKey: "christmasChart",
  contract: christmasChart,
  periodOptions: "monthsDefault12",
  load: loadCall({
    contract: christmasChart,
    input: ({ filter, period }) => ({
      query: {
        ...analyticsIds(filter),
        DataType: filter.dataType,
        DateFrom: filter.dateFrom ?? "",
        DateTo: filter.dateTo ?? "",
        RecordTypeFrom: filter.recordTypeFrom,
        RecordTypeTo: filter.recordTypeTo,
        StockType: filter.stockType ?? "",
        PeriodFrom: seriesStart(filter.dateTo as PeriodKey, period),
        PeriodTo: filter.dateTo ?? "",
      },
    }),
    select: (r) => (r.points.length ? r.points : null),
  }),
  render: ChristmasRenderer,
  expandable: true,
  subtitle: ({ filter, period }) =>
    `${filter.dataType === "Margin" ? "Change of margin" : "Change"} each month, ${durations.duration(period)} to ${month(filter.dateTo)}`,
};

// --- Lists -----------------------------------------------------------------------------------------

const acquiredClients: CardDefinition<ClientListData> = {
  id: "acquiredClients",
  heading: "Acquired clients",
  helpKey: "acquiredClients",
  contract: varianceBars,
  searchable: true,
  load: loadCall({
    contract: varianceBars,
    input: ({ filter, search }) => ({
      query: {
        ...analyticsQuery(filter),
        varType: "Client",
        sign: "Positive",
        ...searchParam(search),
        startRow: 0,
        rowLimit: 100,
      },
    }),
    select: (r) =>
      r.rowCount === 0
        ? null
        : {
            rows: r.rows.map((c) => ({
              clientID: c.clientID,
              clientCode: c.clientCode,
              clientName: c.clientName,
              valueCents: c.valueCents,
            })),
            rowCount: r.rowCount,
            noun: "acquired",
          },
  }),
  render: ClientListRenderer,
  expandable: true,
  subtitle: comparedMonths,
};

const lostClients: CardDefinition<ClientListData> = {
  id: "lostClients",
  heading: "Lost clients",
  helpKey: "lostClients",
  contract: lostRankContributionKpi,
  searchable: true,
  toggle: {
    label: "Order by",
    options: [
      // By value: MRR, as the list's column says (margin in a Margin view).
      { value: "Revenue", label: "MRR" },
      { value: "Rank", label: "Rank" },
      { value: "Contribution", label: "Contribution" },
    ],
    param: "lostOrder",
  },
  load: loadCall({
    contract: lostRankContributionKpi,
    input: ({ filter, search, toggle }) => ({
      query: {
        ...analyticsQuery(filter),
        type: toggle ?? "Revenue",
        ...searchParam(search),
        startRow: 0,
        rowLimit: 100,
      },
    }),
    select: (r) =>
      r.rowCount === 0
        ? null
        : {
            rows: r.rows.map((c) => ({
              clientID: c.clientID,
              clientCode: c.clientCode,
              clientName: c.clientName,
              valueCents: c.valueCents,
              rank: c.rank,
              contribution: c.contribution,
            })),
            rowCount: r.rowCount,
            noun: "lost",
          },
  }),
  render: ClientListRenderer,
  expandable: true,
  subtitle: comparedMonths,
};

const revenueBySegment: CardDefinition<ResponseOf<typeof gridGeneralKpi>> = {
  id: "revenueBySegment",
  heading: "Revenue by segment",
  helpKey: "revenueBySegment",
  contract: gridGeneralKpi,
  toggle: { label: "Segment", options: segmentOptions, display: "select", param: "segment" },
  load: loadCall({
    contract: gridGeneralKpi,
    input: ({ filter, toggle }) => ({ query: { ...analyticsQuery(filter), segment: toggle ?? "stockType" } }),
    select: (r) => (r.rows.length ? r : null),
  }),
  render: SegmentRenderer,
  expandable: true,
  subtitle: laterMonth,
};

const activity: CardDefinition<ResponseOf<typeof activityTableGet>> = {
  id: "activity",
  heading: "Activity",
  helpKey: "activityTable",
  contract: activityTableGet,
  searchable: true,
  toggle: { label: "Status", options: activityBadgeOptions, param: "activityStatus" },
  load: loadCall({
    contract: activityTableGet,
    input: (context) => ({ query: activityQuery(context, { startRow: 0, rowLimit: activityPageSize }) }),
    select: (r) => (r.rowCount === 0 ? null : r),
  }),
  render: ActivityRenderer,
  expandable: true,
  subtitle: comparedMonths,
};

/** Every card, by id. */
export const cardCatalogue = {
  mrr: kpiCard("mrr", "MRR", "mrr", "money", (k) => ({ value: k.mrrCents, from: k.mrrFromCents })),
  arr: kpiCard("arr", "ARR", "arr", "money", (k) => ({ value: k.arrCents, from: k.arrFromCents })),
  clientsSubscribed: kpiCard(
    "clientsSubscribed",
    "Clients subscribed",
    "clientsSubscribed",
    "count",
    (k) => ({
      value: k.clientsSubscribed,
      from: k.clientsSubscribedFrom,
    }),
  ),
  arpa: kpiCard("arpa", "ARPA", "arpa", "money", (k) => ({ value: k.arpaCents, from: k.arpaFromCents })),
  nrr: retentionCard("nrr", "NRR"),
  grr: retentionCard("grr", "GRR"),
  waterfall,
  varianceByType,
  trend,
  christmas,
  acquiredClients,
  lostClients,
  revenueBySegment,
  activity,
  ...level2Cards,
  ...level3Cards,
  ...level4Cards,
  ...forecastCards,
} satisfies Record<string, AnyCardDefinition>;

export type CardId = keyof typeof cardCatalogue;
