import { activityTableGet, christmasChart, overviewKpi, varianceBars } from "@varia/contracts";
import { type PeriodKey, periodFormat, periodFromKey } from "@varia/period";
import { createFormat } from "../../ui/format/format";
import { analyticsIds, analyticsQuery } from "../filters/view-filter";
import { contributorNoun, marginPrefix, varianceStepLabel } from "../variance-labels";
import { callShared, loadCall } from "./card-call";
import type { CardDefinition, CardQueryContext } from "./card-types";
import { ContributorBarsRenderer, type ContributorRow } from "./renderers/ContributorBarsRenderer";
import {
  ContributorClientsRenderer,
  type ContributorPage,
  contributorPageSize,
} from "./renderers/ContributorClientsRenderer";
import {
  type ContributorLinesPage,
  ContributorLinesRenderer,
  contributorLinesPageSize,
  contributorLinesQuery,
} from "./renderers/ContributorLinesRenderer";
import { type FigureData, FigureRenderer } from "./renderers/FigureRenderer";
import { type StepHistoryPoint, StepHistoryRenderer } from "./renderers/StepHistoryRenderer";
import { searchParam } from "./search-param";
import { seriesStart } from "./series-start";
import { stepQuery } from "./step-query";

/*
 * Level 2's cards: the contributors of one variance type and sign (the view's varType and sign).
 * Their total is VarianceBars' total of every contributor, the waterfall step they came from.
 */

const month = (key: string | null) => (key ? periodFormat(periodFromKey(key)) : "");
const durations = createFormat({ forcedLocale: "en-US" });
const compared = ({ filter }: CardQueryContext) => `${month(filter.dateFrom)} → ${month(filter.dateTo)}`;
const stepName = ({ filter }: CardQueryContext) => varianceStepLabel(filter.varType ?? "", filter.sign ?? "");

/** The step's first page of contributors (largest first) with the total and count of all. */
const stepSummary = (filter: CardQueryContext["filter"]) =>
  callShared(varianceBars, { query: { ...stepQuery(filter), startRow: 0, rowLimit: 10 } });

const stepTotal: CardDefinition<FigureData> = {
  id: "stepTotal",
  heading: "Total of the step",
  helpKey: "stepTotal",
  contract: varianceBars,
  load: async ({ filter }) => {
    const [bars, kpi] = await Promise.all([
      stepSummary(filter),
      callShared(overviewKpi, { query: analyticsQuery(filter) }),
    ]);
    return {
      value: { kind: "change", value: bars.totals.valueCents },
      caption: `${varianceStepLabel(filter.varType ?? "", filter.sign ?? "")}, ${month(filter.dateFrom)} → ${month(filter.dateTo)}`,
      facts: [
        {
          label: `Against ${month(filter.dateFrom)} MRR`,
          value: {
            kind: "signedPercent",
            value: kpi.mrrFromCents ? bars.totals.valueCents / kpi.mrrFromCents : null,
          },
        },
        { label: "Net change of MRR", value: { kind: "change", value: kpi.mrrCentsVariance } },
      ],
    };
  },
  render: FigureRenderer,
  expandable: false,
  subtitle: stepName,
};

const stepCount: CardDefinition<FigureData> = {
  id: "stepCount",
  heading: "Contributors",
  helpKey: "stepContributors",
  contract: varianceBars,
  load: async ({ filter }) => {
    const bars = await stepSummary(filter);
    return {
      value: { kind: "count", value: bars.rowCount },
      caption: contributorNoun(filter.varType, bars.rowCount),
      facts: [
        {
          label: "Average each",
          value: { kind: "change", value: bars.rowCount ? bars.totals.valueCents / bars.rowCount : null },
        },
      ],
    };
  },
  render: FigureRenderer,
  expandable: false,
  subtitle: compared,
};

const stepLargest: CardDefinition<FigureData> = {
  id: "stepLargest",
  heading: "Largest contributor",
  helpKey: "stepLargest",
  contract: varianceBars,
  load: async ({ filter }) => {
    const bars = await stepSummary(filter);
    const top = bars.rows[0];
    if (!top) return null;
    return {
      value: { kind: "change", value: top.valueCents },
      caption: `${top.clientName}${top.itemName ? ` · ${top.itemName}` : ""}`,
      facts: [
        {
          label: "Share of the step",
          value: {
            kind: "percent",
            value: bars.totals.valueCents ? top.valueCents / bars.totals.valueCents : null,
          },
        },
      ],
    };
  },
  render: FigureRenderer,
  expandable: false,
  subtitle: compared,
};

const stepContributors: CardDefinition<ContributorRow[]> = {
  id: "stepContributors",
  heading: "Largest contributors",
  helpKey: "stepContributors",
  contract: varianceBars,
  load: async ({ filter }) => {
    const bars = await stepSummary(filter);
    return bars.rows.length ? bars.rows : null;
  },
  render: ContributorBarsRenderer,
  expandable: true,
  subtitle: compared,
};

const stepHistory: CardDefinition<StepHistoryPoint[]> = {
  id: "stepHistory",
  heading: "The step month by month",
  helpKey: "stepHistory",
  contract: christmasChart,
  periodOptions: "monthsDefault12",
  load: loadCall({
    contract: christmasChart,
    input: ({ filter, period }) => {
      return {
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
          ...(filter.varType ? { VarianceType: filter.varType } : {}),
        },
      };
    },
    select: (r) => (r.points.length ? r.points : null),
  }),
  render: StepHistoryRenderer,
  expandable: true,
  subtitle: ({ filter, period }) =>
    `${marginPrefix(filter.dataType)}${durations.duration(period)} to ${month(filter.dateTo)}`,
};

const stepClients: CardDefinition<ContributorPage> = {
  id: "stepClients",
  heading: "Every contributor",
  helpKey: "stepContributors",
  contract: varianceBars,
  searchable: true,
  load: loadCall({
    contract: varianceBars,
    input: ({ filter, search }) => ({
      query: {
        ...stepQuery(filter),
        ...searchParam(search),
        startRow: 0,
        rowLimit: contributorPageSize,
      },
    }),
    select: (r) => (r.rowCount === 0 ? null : r),
  }),
  render: ContributorClientsRenderer,
  expandable: true,
  subtitle: compared,
};

const stepLines: CardDefinition<ContributorLinesPage> = {
  id: "stepLines",
  heading: "Every contributor",
  helpKey: "stepContributors",
  contract: activityTableGet,
  searchable: true,
  load: loadCall({
    contract: activityTableGet,
    input: (context) => ({
      query: contributorLinesQuery(context, { startRow: 0, rowLimit: contributorLinesPageSize }),
    }),
    select: (r) => (r.rowCount === 0 ? null : r),
  }),
  render: ContributorLinesRenderer,
  expandable: true,
  subtitle: compared,
};

export const level2Cards = {
  stepTotal,
  stepCount,
  stepLargest,
  stepContributors,
  stepHistory,
  stepClients,
  stepLines,
};
