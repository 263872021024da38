import { variance } from "@varia/variance";
import type { ReportDefinition } from "./report-definition";
import { money } from "./report-money";
import { clientCode, clientName, salespersonName } from "./report-names";

/** Clients acquired between F and T (Client contribution > 0, docs/methodology.md, "KPIs"), largest first. */
export const acquiredClients: ReportDefinition = {
  id: "acquired-clients",
  columns: [
    { field: "clientCode", header: "Client code", kind: "text" },
    { field: "clientName", header: "Client", kind: "text" },
    { field: "salesperson", header: "Salesperson", kind: "text" },
    { field: "value", header: "New MRR", kind: "money" },
  ],
  run({ cube, query }) {
    const result = variance(cube, { ...query, showAdhoc: false });
    const owners = new Map(result.lines.map((l) => [l.clientId, l.salespersonId]));
    const rows = result.acquiredClients.map((c) => ({
      clientCode: clientCode(cube, c.clientId),
      clientName: clientName(cube, c.clientId),
      salesperson: salespersonName(cube, owners.get(c.clientId) ?? 0),
      value: money(c.value),
    }));
    return { rows, totals: { value: money(result.byType.Client.positive) } };
  },
};
