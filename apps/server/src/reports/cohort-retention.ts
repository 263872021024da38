import type { ReportRow } from "@varia/contracts";
import { cohorts } from "@varia/variance";
import type { ReportDefinition } from "./report-definition";
import { money } from "./report-money";
import { yearMonthOf } from "./resolve-report-input";

/** The months after a cohort's first that the report shows: a year of cohorts ends at dateTo. */
const laterMonths = 11;
const monthField = (k: number) => `month${k}`;

/** A share of a cohort's first-month MRR; none when that MRR is not above zero (a margin can be). */
const retained = (value: number, start: number) => (start > 0 ? value / start : null);

/**
 * Clients grouped by the month they were first active, for the 12 months to dateTo: how many, their
 * MRR then and now, and their MRR in each month after as a share of their first month's
 * (docs/methodology.md, "Cohorts").
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
  run({ cube, query, filter }) {
    const found = cohorts(cube, { ...filter, periodTo: query.to, periodCount: laterMonths + 1 });
    const rows = found.map((c) => {
      const start = c.mrr[0]!;
      const row: ReportRow = {
        cohort: yearMonthOf(c.month),
        clients: c.clients,
        startMrr: money(start),
        clientsNow: c.active.at(-1)!,
        mrrNow: money(c.mrr.at(-1)!),
      };
      for (let k = 1; k <= laterMonths; k++)
        row[monthField(k)] = k < c.mrr.length ? retained(c.mrr[k]!, start) : null;
      return row;
    });
    // Each month's total weighs the cohorts that have reached it by their first month's MRR.
    const totals: ReportRow = {
      clients: found.reduce((sum, c) => sum + c.clients, 0),
      startMrr: money(found.reduce((sum, c) => sum + c.mrr[0]!, 0)),
      clientsNow: found.reduce((sum, c) => sum + c.active.at(-1)!, 0),
      mrrNow: money(found.reduce((sum, c) => sum + c.mrr.at(-1)!, 0)),
    };
    for (let k = 1; k <= laterMonths; k++) {
      const reached = found.filter((c) => k < c.mrr.length);
      totals[monthField(k)] = reached.length
        ? retained(
            reached.reduce((sum, c) => sum + c.mrr[k]!, 0),
            reached.reduce((sum, c) => sum + c.mrr[0]!, 0),
          )
        : null;
    }
    const dataStart = cube.months("Actual")[0];
    const notes = [
      "Each month after a cohort's first: its clients' MRR then as a share of their first month's, expansion and contraction included, clients lost counted at nothing.",
      ...(dataStart === undefined
        ? []
        : [
            `Clients active in ${yearMonthOf(dataStart)}, the first month of data, are in no cohort: they may have started before it.`,
          ]),
    ];
    return { rows, totals, notes };
  },
};
