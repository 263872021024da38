import type { ReportColumn } from "@varia/contracts";
import { variance } from "@varia/variance";
import type { ReportDefinition } from "./report-definition";
import { changeRatio, money } from "./report-money";
import { byCode, clientCode, clientName, salespersonName } from "./report-names";

const adhocColumns: ReportColumn[] = [
  { field: "adhocFrom", header: "Ad-hoc from", kind: "money" },
  { field: "adhocTo", header: "Ad-hoc to", kind: "money" },
];

/**
 * Each client's MRR in F and T and the change (the activity table summed per client); with
 * showAdhoc, the client's Adhoc revenue in both periods beside it (never part of MRR).
 */
export const mrrByClient: ReportDefinition = {
  id: "mrr-by-client",
  columns: [
    { field: "clientCode", header: "Client code", kind: "text" },
    { field: "clientName", header: "Client", kind: "text" },
    { field: "salesperson", header: "Salesperson", kind: "text" },
    { field: "status", header: "Status", kind: "text" },
    { field: "mrrFrom", header: "MRR from", kind: "money" },
    { field: "mrrTo", header: "MRR to", kind: "money" },
    { field: "change", header: "Change", kind: "money" },
    { field: "changePercent", header: "Change %", kind: "percent" },
  ],
  run({ cube, query }) {
    const result = variance(cube, query);
    const clients = new Map<
      number,
      { from: number; to: number; adhocFrom: number; adhocTo: number; salespersonId: number; status: string }
    >();
    const adhoc = new Map<number, { from: number; to: number }>();
    for (const line of result.lines) {
      if (line.status === "Adhoc") {
        const sums = adhoc.get(line.clientId) ?? { from: 0, to: 0 };
        sums.from += line.from;
        sums.to += line.to;
        adhoc.set(line.clientId, sums);
        continue;
      }
      const entry = clients.get(line.clientId) ?? {
        from: 0,
        to: 0,
        adhocFrom: 0,
        adhocTo: 0,
        salespersonId: line.salespersonId,
        status: line.clientBadge ?? "existing",
      };
      entry.from += line.from;
      entry.to += line.to;
      clients.set(line.clientId, entry);
    }
    for (const [clientId, sums] of adhoc) {
      const entry = clients.get(clientId) ?? {
        from: 0,
        to: 0,
        adhocFrom: 0,
        adhocTo: 0,
        salespersonId: 0,
        status: "adhoc",
      };
      entry.adhocFrom = sums.from;
      entry.adhocTo = sums.to;
      clients.set(clientId, entry);
    }
    const rows = [...clients]
      .sort(
        ([a, x], [b, y]) =>
          y.to - x.to || y.from - x.from || byCode(clientCode(cube, a), clientCode(cube, b)),
      )
      .map(([id, c]) => ({
        clientCode: clientCode(cube, id),
        clientName: clientName(cube, id),
        salesperson: salespersonName(cube, c.salespersonId),
        status: c.status,
        mrrFrom: money(c.from),
        mrrTo: money(c.to),
        change: money(c.to - c.from),
        changePercent: changeRatio(c.from, c.to),
        ...(query.showAdhoc ? { adhocFrom: money(c.adhocFrom), adhocTo: money(c.adhocTo) } : {}),
      }));
    return {
      rows,
      ...(query.showAdhoc ? { columns: [...mrrByClient.columns, ...adhocColumns] } : {}),
      totals: {
        mrrFrom: money(result.totalFrom),
        mrrTo: money(result.totalTo),
        change: money(result.totalTo - result.totalFrom),
        changePercent: changeRatio(result.totalFrom, result.totalTo),
        ...(query.showAdhoc
          ? { adhocFrom: money(result.adhocFrom ?? 0), adhocTo: money(result.adhocTo ?? 0) }
          : {}),
      },
    };
  },
};
