import {
  christmasChart,
  overviewKpi,
  type ResponseOf,
  skuDetail,
  specificClientDetail,
  specificDonutChart,
  specificMrrKpi,
  specificRankContributionKpi,
  specificSalespersonDetail,
  trendChart,
} from "@varia/contracts";
import { type PeriodKey, periodFormat, periodFromKey, periodMonthIndex } from "@varia/period";
import { createFormat } from "../../ui/format/format";
import { analyticsIds, analyticsQuery } from "../filters/view-filter";
import { marginPrefix } from "../variance-labels";
import { callShared, loadCall } from "./card-call";
import type { CardDefinition, CardQueryContext } from "./card-types";
import { type FigureData, FigureRenderer } from "./renderers/FigureRenderer";
import { type HistoryData, HistoryRenderer } from "./renderers/HistoryRenderer";
import { type RankData, RankRenderer } from "./renderers/RankRenderer";
import { SegmentRenderer } from "./renderers/SegmentRenderer";
import { type SubjectProfileData, SubjectProfileRenderer } from "./renderers/SubjectProfileRenderer";
import { type TwoMonthsData, TwoMonthsRenderer } from "./renderers/TwoMonthsRenderer";
import { seriesStart } from "./series-start";
import { subjectKind, wholeOf } from "./subject";

/*
 * Level 3's cards: one client, service, client's service or salesperson (the view's subject). The
 * view's calls are narrowed to the subject by analyticsQuery; the whole it is part of is wholeOf.
 */

const month = (key: string | null) => (key ? periodFormat(periodFromKey(key)) : "");
const durations = createFormat({ forcedLocale: "en-US" });
const compared = ({ filter }: CardQueryContext) => `${month(filter.dateFrom)} → ${month(filter.dateTo)}`;
/** The later month, and "Margin, " before it in a Margin view, for the cards that measure. */
const laterMonth = ({ filter }: CardQueryContext) =>
  `${marginPrefix(filter.dataType)}${month(filter.dateTo)}`;

const subjectMrr: CardDefinition<TwoMonthsData> = {
  id: "subjectMrr",
  heading: "MRR",
  helpKey: "specificMrr",
  contract: specificMrrKpi,
  load: loadCall({
    contract: specificMrrKpi,
    input: ({ filter }) => ({ query: analyticsQuery(filter) }),
    select: (r, { filter }) => ({
      fromLabel: month(filter.dateFrom),
      toLabel: month(filter.dateTo),
      fromCents: r.mrrFromCents,
      toCents: r.mrrCents,
    }),
  }),
  render: TwoMonthsRenderer,
  expandable: false,
  subtitle: (c) => `${marginPrefix(c.filter.dataType)}${compared(c)}`,
};

function rankCard(show: RankData["show"]): CardDefinition<RankData> {
  return {
    id: show === "rank" ? "subjectRank" : "subjectContribution",
    heading: show === "rank" ? "Rank" : "Contribution",
    helpKey: show === "rank" ? "specificRank" : "specificContribution",
    contract: specificRankContributionKpi,
    searchable: false,
    load: loadCall({
      contract: specificRankContributionKpi,
      input: ({ filter }) => ({
        query: { ...analyticsQuery({ ...filter, thirdStockItemID: null }) },
      }),
      select: (r) => ({
        show,
        clientID: r.clientID,
        rank: r.rank,
        contribution: r.contribution,
        valueCents: r.valueCents,
        clientCount: r.clientCount,
        period: r.period,
      }),
    }),
    render: RankRenderer,
    expandable: true,
    subtitle: laterMonth,
  };
}

/** The subject's MRR as a share of the whole (a service's or salesperson's part of the total). */
const subjectShare: CardDefinition<FigureData> = {
  id: "subjectShare",
  heading: "Share of MRR",
  helpKey: "specificShare",
  contract: specificMrrKpi,
  load: async ({ filter }) => {
    const [own, whole] = await Promise.all([
      callShared(specificMrrKpi, { query: analyticsQuery(filter) }),
      callShared(overviewKpi, { query: analyticsQuery(wholeOf(filter)) }),
    ]);
    return {
      value: { kind: "percent", value: whole.mrrCents ? own.mrrCents / whole.mrrCents : null },
      caption: `of ${month(filter.dateTo)} MRR`,
      facts: [
        {
          label: month(filter.dateFrom),
          value: {
            kind: "percent",
            value: whole.mrrFromCents ? own.mrrFromCents / whole.mrrFromCents : null,
          },
        },
      ],
    };
  },
  render: FigureRenderer,
  expandable: false,
  subtitle: laterMonth,
};

type ClientDetail = ResponseOf<typeof specificClientDetail>;

const subjectProfile: CardDefinition<SubjectProfileData> = {
  id: "subjectProfile",
  heading: "Profile",
  helpKey: "specificProfile",
  contract: specificClientDetail,
  load: async ({ filter }) => {
    const months = {
      ...(filter.dateFrom ? { dateFrom: filter.dateFrom } : {}),
      ...(filter.dateTo ? { dateTo: filter.dateTo } : {}),
    };
    const kind = subjectKind(filter);
    if ((kind === "client" || kind === "clientService") && filter.thirdClientID) {
      const d: ClientDetail = await callShared(specificClientDetail, {
        query: { ...analyticsQuery({ ...filter, thirdStockItemID: null }), clientID: filter.thirdClientID },
      });
      const tenure =
        d.firstPeriod && filter.dateTo
          ? periodMonthIndex(periodFromKey(filter.dateTo)) -
            periodMonthIndex(periodFromKey(d.firstPeriod)) +
            1
          : null;
      const active = d.services.filter((s) => s.mrrCents !== 0).length;
      return {
        facts: [
          { label: "Code", value: { kind: "text", value: d.clientCode } },
          { label: "Salesperson", value: { kind: "text", value: d.salesperson ?? "–" } },
          {
            label: "Client since",
            value: {
              kind: "text",
              // Where the data starts, the client may have been one before (docs/behaviour.md, "Level 3").
              value: d.firstPeriod
                ? d.firstPeriodStartsTheData
                  ? `${month(d.firstPeriod)} or earlier${tenure && tenure > 0 ? ` (${durations.duration(tenure)} or more)` : ""}`
                  : `${month(d.firstPeriod)}${tenure && tenure > 0 ? ` (${durations.duration(tenure)})` : ""}`
                : "–",
            },
          },
          { label: "Last active", value: { kind: "text", value: d.lastPeriod ? month(d.lastPeriod) : "–" } },
          { label: `Services in ${month(filter.dateTo)}`, value: { kind: "count", value: active } },
        ],
      };
    }
    if (kind === "service" && filter.thirdStockItemID) {
      const d = await callShared(skuDetail, {
        query: { ...analyticsQuery(filter), ...months, stockItemID: filter.thirdStockItemID },
      });
      return {
        facts: [
          { label: "Code", value: { kind: "text", value: d.itemCode } },
          { label: "Stock type", value: { kind: "text", value: d.stockType } },
          { label: "Category", value: { kind: "text", value: d.category } },
          { label: `Clients in ${month(filter.dateFrom)}`, value: { kind: "count", value: d.clientsFrom } },
          { label: `Clients in ${month(filter.dateTo)}`, value: { kind: "count", value: d.clients } },
        ],
      };
    }
    if (kind === "salesperson" && filter.salespersonID) {
      const d = await callShared(specificSalespersonDetail, {
        query: { ...analyticsQuery(filter), contactID: filter.salespersonID },
      });
      return {
        facts: [
          { label: `Clients in ${month(filter.dateTo)}`, value: { kind: "count", value: d.clients } },
          { label: "Transferred in", value: { kind: "change", value: d.transferInCents } },
          { label: "Transferred out", value: { kind: "change", value: d.transferOutCents } },
        ],
      };
    }
    return null;
  },
  render: SubjectProfileRenderer,
  expandable: false,
  subtitle: ({ filter }) => month(filter.dateTo),
};

/**
 * The subject's history: the Year-end chart's months (each against the one before, by type) beside
 * the Trend's MRR of each month, narrowed to the subject; only the months in which something moved.
 */
const subjectHistory: CardDefinition<HistoryData> = {
  id: "subjectHistory",
  heading: "History",
  helpKey: "specificHistory",
  contract: christmasChart,
  periodOptions: "monthsDefault12",
  periodParam: "historyPeriodCount",
  load: async ({ filter, period }) => {
    if (!filter.dateTo) return null;
    const months = {
      PeriodFrom: seriesStart(filter.dateTo as PeriodKey, period),
      PeriodTo: filter.dateTo,
    };
    const [changes, totals] = await Promise.all([
      callShared(christmasChart, {
        query: {
          ...analyticsIds(filter),
          DataType: filter.dataType,
          DateFrom: filter.dateFrom ?? "",
          DateTo: filter.dateTo,
          RecordTypeFrom: filter.recordTypeFrom,
          RecordTypeTo: filter.recordTypeTo,
          StockType: filter.stockType ?? "",
          ...months,
        },
      }),
      callShared(trendChart, {
        query: {
          ...analyticsIds(filter),
          ...(filter.stockType ? { stockType: filter.stockType } : {}),
          DataType: filter.dataType,
          ...months,
          RecordType: filter.recordTypeTo,
          PeriodMode: filter.periodType,
          RecordTypeFrom: filter.recordTypeFrom,
          RecordTypeTo: filter.recordTypeTo,
          ShowAdhoc: "false",
          PeriodCount: period,
        },
      }),
    ]);
    const mrr = new Map(totals.points.map((p) => [p.period, p.totalCents]));
    const moved = changes.points
      .filter(
        (p) => p.netCents !== 0 || Object.values(p.byType).some((t) => t.positiveCents || t.negativeCents),
      )
      .map((p) => ({ ...p, mrrCents: mrr.get(p.period) ?? 0 }))
      .reverse();
    return moved.length ? moved : null;
  },
  render: HistoryRenderer,
  expandable: true,
  subtitle: ({ filter, period }) =>
    `${filter.dataType === "Margin" ? "Margin, months" : "Months"} with a change, ${durations.duration(period)} to ${month(filter.dateTo)}`,
};

const dimensionOptions = [
  { value: "item", label: "Service" },
  { value: "stockType", label: "Stock type" },
  { value: "salesperson", label: "Salesperson" },
  { value: "clientSize", label: "Client size" },
];

function donutCard(
  id: string,
  options: typeof dimensionOptions,
): CardDefinition<ResponseOf<typeof specificDonutChart>> {
  return {
    id,
    heading: "By dimension",
    helpKey: "specificDonut",
    contract: specificDonutChart,
    toggle: { label: "Dimension", options, display: "select", param: "dimension" },
    load: loadCall({
      contract: specificDonutChart,
      input: ({ filter, toggle }) => ({
        query: { ...analyticsQuery(filter), dimension: toggle ?? options[0]!.value },
      }),
      select: (r) => (r.rows.length ? r : null),
    }),
    render: SegmentRenderer,
    expandable: true,
    subtitle: laterMonth,
  };
}

export const level3Cards = {
  subjectMrr,
  subjectRank: rankCard("rank"),
  subjectContribution: rankCard("contribution"),
  subjectShare,
  subjectProfile,
  subjectHistory,
  /** A client's or salesperson's MRR by service first. */
  subjectDonut: donutCard("subjectDonut", dimensionOptions),
  /** A service's MRR by salesperson first (by service it would be one slice). */
  serviceDonut: donutCard(
    "serviceDonut",
    dimensionOptions
      .filter((o) => o.value !== "item")
      .sort((a, b) => (a.value === "salesperson" ? -1 : b.value === "salesperson" ? 1 : 0)),
  ),
};

export { compared };
