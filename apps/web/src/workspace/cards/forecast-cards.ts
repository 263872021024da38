import { type ReportResult, reportRun } from "@varia/contracts";
import { periodFormat, periodFromKey } from "@varia/period";
import { analyticsQuery, type ViewFilter } from "../filters/view-filter";
import { measureName } from "../variance-labels";
import { callShared } from "./card-call";
import type { CardDefinition } from "./card-types";
import { type FigureData, FigureRenderer } from "./renderers/FigureRenderer";
import {
  ForecastChartRenderer,
  type ForecastData,
  ForecastTableRenderer,
} from "./renderers/ForecastRenderer";

/*
 * The forecast page's cards: the forecast report (Report/Run, reportID forecast) of the view's
 * filter: MRR of the months up to dateTo (the history it is fitted on) and of the next 12 by Holt's
 * linear trend, with the 80% interval, and the method's back-tested error.
 */

const month = (key: string | null) => (key ? periodFormat(periodFromKey(key)) : "");
const cents = (value: unknown) => (typeof value === "number" ? Math.round(value * 100) : null);
const figure = (r: ReportResult, name: string) => {
  const value = r.figures?.[name];
  return typeof value === "number" ? value : null;
};

/** The forecast of a view, as points in cents. */
export async function loadForecast(filter: ViewFilter): Promise<ForecastData | null> {
  const { dataType, stockType } = analyticsQuery(filter);
  // Reports take ids (the client, service and salesperson pickers set them).
  const clientID = filter.thirdClientID ?? filter.clientID;
  const stockItemID = filter.thirdStockItemID ?? filter.stockItemID;
  const salespersonID = filter.salespersonID;
  const result = await callShared(reportRun, {
    body: {
      reportID: "forecast",
      dataType,
      ...(filter.dateTo ? { dateTo: filter.dateTo } : {}),
      ...(stockType ? { stockType } : {}),
      ...(clientID ? { clientID } : {}),
      ...(stockItemID ? { stockItemID } : {}),
      ...(salespersonID ? { salespersonID } : {}),
      rowLimit: 1000,
    },
  });
  if (!result.rows.length) return null;
  return {
    points: result.rows.map((row) => ({
      month: String(row.month),
      actual: row.kind === "Actual",
      valueCents: cents(row.value) ?? 0,
      lowerCents: cents(row.lower),
      upperCents: cents(row.upper),
    })),
    fittedMonths: figure(result, "fittedMonths"),
    alpha: figure(result, "alpha"),
    beta: figure(result, "beta"),
    backtestMonths: figure(result, "backtestMonths"),
    backtestMaeCents: cents(figure(result, "backtestMae")),
    backtestMape: figure(result, "backtestMape"),
    notes: result.notes,
  };
}

const lastOf = (data: ForecastData, actual: boolean) => data.points.filter((p) => p.actual === actual).at(-1);

const forecastChart: CardDefinition<ForecastData> = {
  id: "forecastChart",
  heading: "Forecast",
  helpKey: "forecast",
  contract: reportRun,
  load: ({ filter }) => loadForecast(filter),
  render: ForecastChartRenderer,
  expandable: true,
  subtitle: ({ filter }) =>
    `${measureName(filter.dataType)} up to ${month(filter.dateTo)} and the next 12 months, with the 80% interval`,
};

const forecastAhead: CardDefinition<FigureData> = {
  id: "forecastAhead",
  heading: "MRR in 12 months",
  helpKey: "forecast",
  contract: reportRun,
  load: async ({ filter }) => {
    const data = await loadForecast(filter);
    const ahead = data && lastOf(data, false);
    const now = data && lastOf(data, true);
    if (!ahead || !now) return null;
    return {
      value: { kind: "money", value: ahead.valueCents },
      caption: `${month(ahead.month)}, forecast`,
      facts: [
        {
          label: `From ${month(now.month)}`,
          value: { kind: "change", value: ahead.valueCents - now.valueCents },
        },
        { label: "80% interval", value: { kind: "range", value: [ahead.lowerCents, ahead.upperCents] } },
      ],
    };
  },
  render: FigureRenderer,
  expandable: false,
};

const forecastError: CardDefinition<FigureData> = {
  id: "forecastError",
  heading: "Back-tested error",
  helpKey: "forecastBacktest",
  contract: reportRun,
  load: async ({ filter }) => {
    const data = await loadForecast(filter);
    if (!data) return null;
    return {
      value:
        data.backtestMape === null
          ? { kind: "text", value: data.backtestMonths ? "–" : "Too few months" }
          : { kind: "percent", value: data.backtestMape },
      caption:
        data.backtestMape === null
          ? "No back-test: the method needs at least 4 months"
          : `mean absolute percentage error, one month ahead, over the last ${data.backtestMonths} months`,
      facts: [
        { label: "Mean absolute error", value: { kind: "money", value: data.backtestMaeCents } },
        {
          label: "Fitted on",
          value: { kind: "text", value: data.fittedMonths ? `${data.fittedMonths} months` : "–" },
        },
      ],
    };
  },
  render: FigureRenderer,
  expandable: false,
};

const forecastTable: CardDefinition<ForecastData> = {
  id: "forecastTable",
  heading: "Forecast and history",
  helpKey: "forecast",
  contract: reportRun,
  load: ({ filter }) => loadForecast(filter),
  render: ForecastTableRenderer,
  expandable: true,
};

export const forecastCards = { forecastChart, forecastAhead, forecastError, forecastTable };
