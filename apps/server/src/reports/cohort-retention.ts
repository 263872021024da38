import type { ReportRow } from "@varia/contracts";
import { periodFormat, periodFromMonthIndex } from "@varia/period";
import { type Cohort, cohorts } from "@varia/variance";
import type { ReportDefinition } from "./report-definition";
import { money } from "./report-money";
import { yearMonthOf } from "./resolve-report-input";

/** The months after a cohort's first that the report shows: a year of cohorts ends at dateTo. */
const laterMonths = 11;
const monthField = (k: number) => `month${k}`;

/** A share of a cohort's start; none when the start is not above zero (a margin can be, or no client). */
const retained = (value: number, start: number) => (start > 0 ? value / start : null);

/**
 * Clients grouped by the month they were first active, for the 12 months to dateTo: how many, their
 * MRR then and now, and in each month after their MRR as a share of their first month's, or with
 * `retention` "clients" how many are active as a share of them (docs/methodology.md, "Cohorts").
 */
export const cohortRetention: ReportDefinition = {
  id: "cohort-retention",
  singlePeriod: true,
  columns: [
    { field: "cohort", header: "Cohort", kind: "month" },
    { field: "clients", header: "Clients", kind: "number" },
    { field: "startMrr", header: "Starting MRR", kind: "money" },
    { field: "clientsNow", header: "Clients now", kind: "number" },
    { field: "mrrNow", header: "MRR now", kind: "money" },
    ...Array.from({ length: laterMonths }, (_, i) => ({
      field: monthField(i + 1),
      header: `Month ${i + 1}`,
      kind: "percent" as const,
      shade: "retention" as const,
    })),
  ],
  run({ cube, query, filter, retention }) {
    const found = cohorts(cube, { ...filter, periodTo: query.to, periodCount: laterMonths + 1 });
    // What each month after the first is a share of: the cohort's MRR, or its clients.
    const followed = (c: Cohort) => (retention === "clients" ? c.active : c.mrr);
    const rows = found.map((c) => {
      const series = followed(c);
      const row: ReportRow = {
        cohort: yearMonthOf(c.month),
        clients: c.clients,
        startMrr: money(c.mrr[0]!),
        clientsNow: c.active.at(-1)!,
        mrrNow: money(c.mrr.at(-1)!),
      };
      for (let k = 1; k <= laterMonths; k++)
        row[monthField(k)] = k < series.length ? retained(series[k]!, series[0]!) : null;
      return row;
    });
    // Each month's total weighs the cohorts that have reached it by their start (MRR or clients).
    const totals: ReportRow = {
      clients: found.reduce((sum, c) => sum + c.clients, 0),
      startMrr: money(found.reduce((sum, c) => sum + c.mrr[0]!, 0)),
      clientsNow: found.reduce((sum, c) => sum + c.active.at(-1)!, 0),
      mrrNow: money(found.reduce((sum, c) => sum + c.mrr.at(-1)!, 0)),
    };
    for (let k = 1; k <= laterMonths; k++) {
      const reached = found.map(followed).filter((series) => k < series.length);
      totals[monthField(k)] = reached.length
        ? retained(
            reached.reduce((sum, series) => sum + series[k]!, 0),
            reached.reduce((sum, series) => sum + series[0]!, 0),
          )
        : null;
    }
    const dataStart = cube.months("Actual")[0];
    const notes = [
      retention === "clients"
        ? "Each month after a cohort's first: how many of its clients are active then, as a share of its clients."
        : "Each month after a cohort's first: its clients' MRR then as a share of their first month's, expansion and contraction included, clients lost counted at nothing.",
      ...(dataStart === undefined
        ? []
        : [
            `Clients active in ${periodFormat(periodFromMonthIndex(dataStart), "display")}, the first month of data, are in no cohort: they may have started before it.`,
          ]),
    ];
    return { rows, totals, notes };
  },
};
