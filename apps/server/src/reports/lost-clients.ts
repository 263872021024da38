import { rankClients, variance } from "@varia/variance";
import type { ReportDefinition } from "./report-definition";
import { money } from "./report-money";
import { clientCode, clientName, salespersonName } from "./report-names";

/**
 * Clients lost between F and T (Client contribution < 0, docs/methodology.md, "KPIs") with the lost-client KPI types
 * of docs/api.md ("Shapes"): the revenue lost, and the client's rank and contribution in F.
 */
export const lostClients: ReportDefinition = {
  id: "lost-clients",
  columns: [
    { field: "clientCode", header: "Client code", kind: "text" },
    { field: "clientName", header: "Client", kind: "text" },
    { field: "salesperson", header: "Salesperson", kind: "text" },
    { field: "value", header: "Lost MRR", kind: "money" },
    { field: "rankFrom", header: "Rank before", kind: "number" },
    { field: "contributionFrom", header: "Contribution before", kind: "percent" },
  ],
  run({ cube, query, filter }) {
    const result = variance(cube, { ...query, showAdhoc: false });
    const owners = new Map(result.lines.map((l) => [l.clientId, l.salespersonId]));
    const ranks = new Map(
      rankClients(cube, { ...filter, month: query.from, recordType: query.recordTypeFrom }).map((r) => [
        r.clientId,
        r,
      ]),
    );
    const rows = result.lostClients.map((c) => ({
      clientCode: clientCode(cube, c.clientId),
      clientName: clientName(cube, c.clientId),
      salesperson: salespersonName(cube, owners.get(c.clientId) ?? 0),
      value: money(c.value),
      rankFrom: ranks.get(c.clientId)?.rank ?? null,
      contributionFrom: ranks.get(c.clientId)?.contribution ?? null,
    }));
    return { rows, totals: { value: money(result.byType.Client.negative) } };
  },
};
