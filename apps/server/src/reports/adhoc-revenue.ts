import { variance } from "@varia/variance";
import type { ReportDefinition } from "./report-definition";
import { money } from "./report-money";
import { byCode, clientCode, clientName, itemCode, itemName } from "./report-names";

/** Revenue of Adhoc items in F and T by client and item: shown where asked, never in MRR (7.1). */
export const adhocRevenue: ReportDefinition = {
  id: "adhoc-revenue",
  columns: [
    { field: "clientCode", header: "Client code", kind: "text" },
    { field: "clientName", header: "Client", kind: "text" },
    { field: "itemCode", header: "Item code", kind: "text" },
    { field: "itemName", header: "Item", kind: "text" },
    { field: "revenueFrom", header: "Ad-hoc from", kind: "money" },
    { field: "revenueTo", header: "Ad-hoc to", kind: "money" },
    { field: "change", header: "Change", kind: "money" },
  ],
  run({ cube, query }) {
    const result = variance(cube, { ...query, stockType: undefined, showAdhoc: true });
    const rows = result.lines
      .filter((l) => l.status === "Adhoc")
      .sort(
        (a, b) =>
          b.to - a.to ||
          b.from - a.from ||
          byCode(clientCode(cube, a.clientId), clientCode(cube, b.clientId)) ||
          byCode(itemCode(cube, a.itemId), itemCode(cube, b.itemId)),
      )
      .map((l) => ({
        clientCode: clientCode(cube, l.clientId),
        clientName: clientName(cube, l.clientId),
        itemCode: itemCode(cube, l.itemId),
        itemName: itemName(cube, l.itemId),
        revenueFrom: money(l.from),
        revenueTo: money(l.to),
        change: money(l.to - l.from),
      }));
    const from = result.adhocFrom ?? 0;
    const to = result.adhocTo ?? 0;
    return {
      rows,
      totals: { revenueFrom: money(from), revenueTo: money(to), change: money(to - from) },
    };
  },
};
