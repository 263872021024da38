import { variance } from "@varia/variance";
import type { ReportDefinition } from "./report-definition";
import { money, quantity } from "./report-money";
import { byCode, clientCode, clientName, itemCode, itemName } from "./report-names";

/** Client services with a Price effect (docs/methodology.md, "Classification of changes"), with the quantity effect beside it. */
export const priceChanges: ReportDefinition = {
  id: "price-changes",
  columns: [
    { field: "clientCode", header: "Client code", kind: "text" },
    { field: "clientName", header: "Client", kind: "text" },
    { field: "itemCode", header: "Service code", kind: "text" },
    { field: "itemName", header: "Service", kind: "text" },
    { field: "quantityFrom", header: "Quantity from", kind: "number" },
    { field: "quantityTo", header: "Quantity to", kind: "number" },
    { field: "mrrFrom", header: "MRR from", kind: "money" },
    { field: "mrrTo", header: "MRR to", kind: "money" },
    { field: "price", header: "Price effect", kind: "money" },
    { field: "quantityEffect", header: "Volume and usage effect", kind: "money" },
  ],
  run({ cube, query }) {
    const result = variance(cube, { ...query, showAdhoc: false });
    const listed = result.lines.filter((l) => l.status !== "Adhoc" && (l.parts.Price ?? 0) !== 0);
    const rows = listed
      .sort(
        (a, b) =>
          Math.abs(b.parts.Price ?? 0) - Math.abs(a.parts.Price ?? 0) ||
          byCode(clientCode(cube, a.clientId), clientCode(cube, b.clientId)) ||
          byCode(itemCode(cube, a.itemId), itemCode(cube, b.itemId)),
      )
      .map((l) => ({
        clientCode: clientCode(cube, l.clientId),
        clientName: clientName(cube, l.clientId),
        itemCode: itemCode(cube, l.itemId),
        itemName: itemName(cube, l.itemId),
        quantityFrom: quantity(l.quantityFrom),
        quantityTo: quantity(l.quantityTo),
        mrrFrom: money(l.from),
        mrrTo: money(l.to),
        price: money(l.parts.Price ?? 0),
        quantityEffect: money((l.parts.Volume ?? 0) + (l.parts.Usage ?? 0)),
      }));
    const t = result.byType;
    // The rows' own sums, in cents (docs/behaviour.md, "Reports"); the price effect's is the
    // waterfall's step, every price effect of the months being a row.
    const sum = (cents: (l: (typeof listed)[number]) => number) =>
      money(listed.reduce((all, l) => all + cents(l), 0));
    return {
      rows,
      totals: {
        mrrFrom: sum((l) => l.from),
        mrrTo: sum((l) => l.to),
        price: money(t.Price.positive + t.Price.negative),
        quantityEffect: sum((l) => (l.parts.Volume ?? 0) + (l.parts.Usage ?? 0)),
      },
    };
  },
};
