import { variance } from "@varia/variance";
import type { ReportDefinition } from "./report-definition";
import { changeRatio, money } from "./report-money";
import { byCode, clientCode, clientName, salespersonName } from "./report-names";

/** Each client's MRR in F and T and the change (the activity table summed per client). */
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
    const result = variance(cube, { ...query, showAdhoc: false });
    const clients = new Map<number, { from: number; to: number; salespersonId: number; status: string }>();
    for (const line of result.lines) {
      if (line.status === "Adhoc") continue;
      const entry = clients.get(line.clientId) ?? {
        from: 0,
        to: 0,
        salespersonId: line.salespersonId,
        status: line.clientBadge ?? "existing",
      };
      entry.from += line.from;
      entry.to += line.to;
      clients.set(line.clientId, entry);
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
      }));
    return {
      rows,
      totals: {
        mrrFrom: money(result.totalFrom),
        mrrTo: money(result.totalTo),
        change: money(result.totalTo - result.totalFrom),
        changePercent: changeRatio(result.totalFrom, result.totalTo),
      },
    };
  },
};
