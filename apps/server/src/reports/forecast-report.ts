import { periodFormat, periodFromMonthIndex } from "@varia/period";
import { forecast } from "@varia/variance";
import type { ReportDefinition } from "./report-definition";
import { money } from "./report-money";

const yearMonth = (month: number) => periodFormat(periodFromMonthIndex(month), "yearMonth");

/**
 * MRR up to dateTo and the next 12 months by Holt's linear trend (docs/methodology.md, "Forecast"), with the 80 %
 * interval; the back-tested error of the method is in the notes.
 */
export const forecastReport: ReportDefinition = {
  id: "forecast",
  singlePeriod: true,
  columns: [
    { field: "month", header: "Month", kind: "month" },
    { field: "kind", header: "Kind", kind: "text" },
    { field: "value", header: "MRR", kind: "money" },
    { field: "lower", header: "Lower (80%)", kind: "money" },
    { field: "upper", header: "Upper (80%)", kind: "money" },
  ],
  run({ cube, query, filter }) {
    const result = forecast(cube, { ...filter, showAdhoc: false, periodTo: query.to });
    const rows = [
      ...result.history.map((h) => ({
        month: yearMonth(h.month),
        kind: "Actual",
        value: money(h.value),
        lower: null,
        upper: null,
      })),
      ...result.points.map((p) => ({
        month: yearMonth(p.month),
        kind: "Forecast",
        value: money(p.value),
        lower: money(p.lower),
        upper: money(p.upper),
      })),
    ];
    const { mape, mae, months } = result.backtest;
    const notes = [
      `Holt's linear trend fitted on ${result.history.length} months (alpha ${result.alpha}, beta ${result.beta}).`,
      months
        ? `Back-test over ${months} month${months === 1 ? "" : "s"}, one month ahead: MAE ${money(mae).toFixed(2)}${
            mape === null ? "" : `, MAPE ${(mape * 100).toFixed(2)}%`
          }.`
        : "Too few months for a back-test.",
    ];
    const figures = {
      fittedMonths: result.history.length,
      alpha: result.alpha,
      beta: result.beta,
      backtestMonths: months,
      backtestMae: money(mae),
      backtestMape: mape,
    };
    return { rows, notes, figures };
  },
};
