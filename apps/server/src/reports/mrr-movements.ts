import { periodFormat, periodFromMonthIndex } from "@varia/period";
import { kpis, startsTheData, variance } from "@varia/variance";
import type { ReportDefinition } from "./report-definition";
import { money } from "./report-money";
import { yearMonthOf } from "./resolve-report-input";

/**
 * MRR gained (new and expansion) for each unit lost (churned and contraction, negative), to two
 * decimals; none when nothing was lost.
 */
const quickRatio = (gained: number, lost: number) =>
  lost === 0 ? null : Math.round((gained / -lost) * 100) / 100;

/** The months the report lists: a year to dateTo. */
const months = 12;

/** The first month of data's row: nothing before it to move from (docs/methodology.md, "KPIs"). */
const openingRow = {
  startMrr: null,
  newMrr: null,
  expansionMrr: null,
  contractionMrr: null,
  churnedMrr: null,
  transferMrr: null,
  netChange: null,
  nrr: null,
  grr: null,
  quickRatio: null,
};

/**
 * Month by month for the year to dateTo (from the first month of data, which has only its MRR), the KPIs of each month
 * against the one before (docs/methodology.md, "KPIs"): MRR at the start, new, expansion,
 * contraction, churned and transferred MRR, which add up to the MRR at the end, with the clients,
 * ARPA, NRR and GRR of the month.
 */
export const mrrMovements: ReportDefinition = {
  id: "mrr-movements",
  singlePeriod: true,
  columns: [
    { field: "month", header: "Month", kind: "month" },
    { field: "startMrr", header: "MRR at start", kind: "money" },
    { field: "newMrr", header: "New", kind: "money" },
    { field: "expansionMrr", header: "Expansion", kind: "money" },
    { field: "contractionMrr", header: "Contraction", kind: "money" },
    { field: "churnedMrr", header: "Churned", kind: "money" },
    { field: "transferMrr", header: "Transfer", kind: "money" },
    { field: "endMrr", header: "MRR at end", kind: "money" },
    { field: "netChange", header: "Net change", kind: "money" },
    { field: "clients", header: "Clients", kind: "number" },
    { field: "arpa", header: "ARPA", kind: "money" },
    { field: "nrr", header: "NRR", kind: "percent" },
    { field: "grr", header: "GRR", kind: "percent" },
    { field: "quickRatio", header: "Quick ratio", kind: "number", decimals: 2 },
  ],
  run({ cube, query, filter }) {
    const dataStart = cube.months("Actual")[0];
    if (dataStart === undefined || dataStart > query.to) return { rows: [] };
    const rows = [];
    const sums = { newMrr: 0, expansionMrr: 0, contractionMrr: 0, churnedMrr: 0, transferMrr: 0 };
    let yearStart: number | undefined;
    let yearEnd = 0;
    for (let month = Math.max(dataStart, query.to - months + 1); month <= query.to; month++) {
      const monthQuery = { ...filter, showAdhoc: false, from: month - 1, to: month };
      const result = variance(cube, { ...monthQuery, detail: "summary" });
      const k = kpis(cube, monthQuery, result);
      if (startsTheData(cube, filter, month)) {
        // Where the data starts: its MRR, with no movements into it (its clients are not new).
        yearStart = k.mrr;
        yearEnd = k.mrr;
        rows.push({
          ...openingRow,
          month: yearMonthOf(month),
          endMrr: money(k.mrr),
          clients: k.clientsSubscribed,
          arpa: money(k.arpa),
        });
        continue;
      }
      const transfer = result.byType.Transfer.positive + result.byType.Transfer.negative;
      sums.newMrr += k.newMrr;
      sums.expansionMrr += k.expansionMrr;
      sums.contractionMrr += k.contractionMrr;
      sums.churnedMrr += k.churnedMrr;
      sums.transferMrr += transfer;
      yearStart ??= k.mrrFrom;
      yearEnd = k.mrr;
      rows.push({
        month: yearMonthOf(month),
        startMrr: money(k.mrrFrom),
        newMrr: money(k.newMrr),
        expansionMrr: money(k.expansionMrr),
        contractionMrr: money(k.contractionMrr),
        churnedMrr: money(k.churnedMrr),
        transferMrr: money(transfer),
        endMrr: money(k.mrr),
        netChange: money(k.mrr - k.mrrFrom),
        clients: k.clientsSubscribed,
        arpa: money(k.arpa),
        nrr: k.nrr,
        grr: k.grr,
        quickRatio: quickRatio(k.newMrr + k.expansionMrr, k.churnedMrr + k.contractionMrr),
      });
    }
    // The year's movements: its months' summed, from the first month's start (or the first month
    // of data's end) to the last's end.
    const totals = {
      startMrr: money(yearStart ?? 0),
      newMrr: money(sums.newMrr),
      expansionMrr: money(sums.expansionMrr),
      contractionMrr: money(sums.contractionMrr),
      churnedMrr: money(sums.churnedMrr),
      transferMrr: money(sums.transferMrr),
      endMrr: money(yearEnd),
      netChange: money(yearEnd - (yearStart ?? 0)),
      quickRatio: quickRatio(sums.newMrr + sums.expansionMrr, sums.churnedMrr + sums.contractionMrr),
    };
    const notes = [
      "Each month against the one before: MRR at start + new + expansion + contraction + churned + transfer = MRR at end. Transfer is not zero only in a salesperson's view.",
      ...(rows[0]?.month === yearMonthOf(dataStart)
        ? [
            `${periodFormat(periodFromMonthIndex(dataStart), "display")} is the first month of data: its MRR is where the data starts (its clients may have started before it), so it has no movements and the totals start from its end.`,
          ]
        : []),
    ];
    return { rows, totals, notes };
  },
};
