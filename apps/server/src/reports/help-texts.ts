import { reportCatalogue } from "@varia/contracts";

/**
 * The help texts of the workspace, one per card, KPI, chart and report: what it shows and how it is
 * computed (docs/methodology.md). Keys are matched without regard to case; reports are keyed
 * `report:<reportID>`.
 */
export interface HelpEntry {
  title: string;
  format: "html" | "text";
  content: string;
}

const activity =
  "A client is active in a month when its Recurring revenue there is above zero; filters narrow what is summed, never what counts as active.";

const baseTexts: Record<string, HelpEntry> = {
  mrr: {
    title: "MRR",
    format: "html",
    content:
      "<p><strong>Monthly recurring revenue</strong>: the revenue of Recurring items in the month, after exclusions.</p><p>Lines with a service period are spread evenly over its months (leftover cents to the earliest months). Adhoc items are never part of MRR.</p>",
  },
  arr: {
    title: "ARR",
    format: "text",
    content: "Annual recurring revenue: 12 x MRR of the month.",
  },
  clientsSubscribed: {
    title: "Clients subscribed",
    format: "text",
    content: `The number of active clients in the month. ${activity}`,
  },
  arpa: {
    title: "ARPA",
    format: "text",
    content:
      "Average revenue per account: MRR divided by clients subscribed, rounded half to even to the cent; 0 when no client is subscribed.",
  },
  newMrr: {
    title: "New MRR",
    format: "text",
    content: "The MRR of clients acquired between the two periods: the positive Client variance.",
  },
  churnedMrr: {
    title: "Churned MRR",
    format: "text",
    content: "The MRR lost with clients that left between the two periods: the negative Client variance.",
  },
  expansionMrr: {
    title: "Expansion MRR",
    format: "text",
    content: "Growth from existing clients: the positive Service, Price, Volume and Usage variances.",
  },
  contractionMrr: {
    title: "Contraction MRR",
    format: "text",
    content: "Shrinkage of existing clients: the negative Service, Price, Volume and Usage variances.",
  },
  grr: {
    title: "Gross revenue retention",
    format: "html",
    content:
      "<p>GRR = (MRR<sub>from</sub> + churned + contraction) / MRR<sub>from</sub>.</p><p>Churned and contraction are negative, so GRR is at most 100 %. Not shown when MRR<sub>from</sub> is zero.</p>",
  },
  nrr: {
    title: "Net revenue retention",
    format: "html",
    content:
      "<p>NRR = (MRR<sub>from</sub> + churned + contraction + expansion) / MRR<sub>from</sub>.</p><p>Above 100 % when existing clients grow more than they shrink and churn.</p>",
  },
  varianceTypes: {
    title: "Variance types",
    format: "html",
    content:
      "<p>The change between two periods is split, per client and service, into exactly one or two types that always add up to the total change, to the cent:</p><ul><li><strong>Client</strong>: clients acquired or lost.</li><li><strong>Service</strong>: services added or removed by existing clients.</li><li><strong>Volume</strong> / <strong>Usage</strong>: the quantity effect (Usage for Hourly items), (Q<sub>to</sub> - Q<sub>from</sub>) x V<sub>from</sub> / Q<sub>from</sub> rounded half to even.</li><li><strong>Price</strong>: the rest of the change.</li><li><strong>Transfer</strong>: clients handed between salespeople (salesperson views only).</li></ul>",
  },
  transfer: {
    title: "Transfer",
    format: "text",
    content:
      "A client's salesperson in a month is the one with the largest Recurring revenue for it (ties: first name alphabetically). When a client active in both periods changes hands, the old salesperson gets Transfer = -MRR before and the new one +MRR before plus the client's usual variance. Over all salespeople Transfer sums to zero.",
  },
  waterfallChart: {
    title: "Waterfall",
    format: "text",
    content:
      "From the total of the first period, one step per variance type and sign, to the total of the second period.",
  },
  trendChart: {
    title: "Trend",
    format: "text",
    content:
      "The total of each of the last periods up to the period shown (8 by default), optionally with ad-hoc revenue.",
  },
  christmasChart: {
    title: "Year-end chart",
    format: "text",
    content:
      "For each month of the range, the variance against the month before: positive types stacked above zero, negative below, with the net change as a line.",
  },
  revenueBySegment: {
    title: "Revenue by segment",
    format: "text",
    content:
      "MRR of the month split by stock type, salesperson, service or client size band, with each segment's share.",
  },
  forecast: {
    title: "Forecast",
    format: "html",
    content:
      "<p>The next 12 months of MRR from Holt's linear trend fitted on up to 36 past months, with an 80 % interval.</p><p>Beside it, the back-tested error: each of the last months forecast one month ahead from the months before it (MAPE and MAE).</p>",
  },
  activityTable: {
    title: "Activity table",
    format: "text",
    content:
      "One line per client and service with its value in both periods, the variance by type and its status: Existing, Added, Removed or Adhoc.",
  },
  rankContribution: {
    title: "Rank and contribution",
    format: "text",
    content:
      "Clients ordered by their value in the period, 1 = the largest; contribution is the client's share of the total.",
  },
  lostClients: {
    title: "Lost clients",
    format: "text",
    content: `Clients active in the first period and not in the second (negative Client variance), with their revenue, rank and contribution before they left. ${activity}`,
  },
  acquiredClients: {
    title: "Acquired clients",
    format: "text",
    content: `Clients not active in the first period and active in the second (positive Client variance). ${activity}`,
  },
};

const reportTexts = Object.fromEntries(
  reportCatalogue.map((r) => [
    `report:${r.reportID}`,
    {
      title: r.name,
      format: "text",
      content: `${r.description} Computed by the same variance engine as the dashboards, so its numbers agree with them to the cent.`,
    } satisfies HelpEntry,
  ]),
);

export const helpTexts: ReadonlyMap<string, HelpEntry> = new Map(
  Object.entries({ ...baseTexts, ...reportTexts }).map(([key, entry]) => [key.toLowerCase(), entry]),
);
