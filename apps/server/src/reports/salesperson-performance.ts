import { type VarianceResult, varianceBySalesperson } from "@varia/variance";
import type { ReportDefinition } from "./report-definition";
import { money } from "./report-money";
import { salespersonName } from "./report-names";

const sumsOf = (r: VarianceResult) => {
  const t = r.byType;
  return {
    from: r.totalFrom,
    to: r.totalTo,
    newMrr: t.Client.positive,
    churned: t.Client.negative,
    expansion: t.Service.positive + t.Price.positive + t.Volume.positive + t.Usage.positive,
    contraction: t.Service.negative + t.Price.negative + t.Volume.negative + t.Usage.negative,
    transferIn: t.Transfer.positive,
    transferOut: t.Transfer.negative,
  };
};
type Sums = ReturnType<typeof sumsOf>;

/**
 * Each salesperson's view of docs/methodology.md ("Salespeople and Transfer"): MRR in F and T, the change by kind, and Transfer for clients
 * that changed hands. Summed over salespeople, Transfer is zero and the rest is the organisation's.
 */
export const salespersonPerformance: ReportDefinition = {
  id: "salesperson-performance",
  columns: [
    { field: "salesperson", header: "Salesperson", kind: "text" },
    { field: "mrrFrom", header: "MRR from", kind: "money" },
    { field: "mrrTo", header: "MRR to", kind: "money" },
    { field: "change", header: "Change", kind: "money" },
    { field: "newMrr", header: "New", kind: "money" },
    { field: "churnedMrr", header: "Churned", kind: "money" },
    { field: "expansionMrr", header: "Expansion", kind: "money" },
    { field: "contractionMrr", header: "Contraction", kind: "money" },
    { field: "transferIn", header: "Transferred in", kind: "money" },
    { field: "transferOut", header: "Transferred out", kind: "money" },
  ],
  run({ cube, query }) {
    const results = varianceBySalesperson(cube, { ...query, salespersonId: undefined, showAdhoc: false });
    const rows = [];
    const total: Sums = {
      from: 0,
      to: 0,
      newMrr: 0,
      churned: 0,
      expansion: 0,
      contraction: 0,
      transferIn: 0,
      transferOut: 0,
    };
    for (const [id, result] of results) {
      if (query.salespersonId !== undefined && id !== query.salespersonId) continue;
      const s = sumsOf(result);
      for (const key of Object.keys(total) as (keyof Sums)[]) total[key] += s[key];
      rows.push(rowOf(id === 0 ? "No salesperson" : salespersonName(cube, id), s));
    }
    const { salesperson: _, ...totals } = rowOf("", total);
    return { rows, totals };
  },
};

function rowOf(salesperson: string, s: Sums) {
  return {
    salesperson,
    mrrFrom: money(s.from),
    mrrTo: money(s.to),
    change: money(s.to - s.from),
    newMrr: money(s.newMrr),
    churnedMrr: money(s.churned),
    expansionMrr: money(s.expansion),
    contractionMrr: money(s.contraction),
    transferIn: money(s.transferIn),
    transferOut: money(s.transferOut),
  };
}
