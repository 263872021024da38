import { variance } from "@varia/variance";
import type { ReportDefinition } from "./report-definition";
import { changeRatio, money } from "./report-money";
import { byCode, itemCode, itemName } from "./report-names";

/** Each service's MRR in F and T, the change, and how many clients take it in each period. */
export const mrrByService: ReportDefinition = {
  id: "mrr-by-service",
  columns: [
    { field: "itemCode", header: "Service code", kind: "text" },
    { field: "itemName", header: "Service", kind: "text" },
    { field: "stockType", header: "Stock type", kind: "text" },
    { field: "clientsFrom", header: "Clients from", kind: "number" },
    { field: "clientsTo", header: "Clients to", kind: "number" },
    { field: "mrrFrom", header: "MRR from", kind: "money" },
    { field: "mrrTo", header: "MRR to", kind: "money" },
    { field: "change", header: "Change", kind: "money" },
    { field: "changePercent", header: "Change %", kind: "percent" },
  ],
  run({ cube, query }) {
    const result = variance(cube, { ...query, showAdhoc: false });
    const items = new Map<number, { from: number; to: number; clientsFrom: number; clientsTo: number }>();
    for (const line of result.lines) {
      if (line.status === "Adhoc") continue;
      const entry = items.get(line.itemId) ?? { from: 0, to: 0, clientsFrom: 0, clientsTo: 0 };
      entry.from += line.from;
      entry.to += line.to;
      if (line.from !== 0) entry.clientsFrom++;
      if (line.to !== 0) entry.clientsTo++;
      items.set(line.itemId, entry);
    }
    const rows = [...items]
      .sort(
        ([a, x], [b, y]) => y.to - x.to || y.from - x.from || byCode(itemCode(cube, a), itemCode(cube, b)),
      )
      .map(([id, s]) => ({
        itemCode: itemCode(cube, id),
        itemName: itemName(cube, id),
        stockType: cube.items.get(id)?.stockType ?? "",
        clientsFrom: s.clientsFrom,
        clientsTo: s.clientsTo,
        mrrFrom: money(s.from),
        mrrTo: money(s.to),
        change: money(s.to - s.from),
        changePercent: changeRatio(s.from, s.to),
      }));
    return {
      rows,
      totals: {
        clientsFrom: result.clientsActiveFrom,
        clientsTo: result.clientsActiveTo,
        mrrFrom: money(result.totalFrom),
        mrrTo: money(result.totalTo),
        change: money(result.totalTo - result.totalFrom),
        changePercent: changeRatio(result.totalFrom, result.totalTo),
      },
    };
  },
};
