import { type CardHelpKey, reportCatalogue } from "@varia/contracts";

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
/** Lists go by the sign of a client's variance (docs/methodology.md, "Signs, contributions and lists"). */
const bySign =
  "In Margin the lists go by the sign of the margin's change: a client acquired at a loss (margin below zero) is among the lost clients, one lost at a loss among the acquired.";

/** Every card's key has a text (`cardHelpKeys`); the KPIs' movements and a few more are for the API. */
const baseTexts: Record<CardHelpKey, HelpEntry> & Record<string, HelpEntry> = {
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
    content: `Clients active in the first period and not in the second (negative Client variance), with their revenue, rank and contribution before they left. ${activity} ${bySign}`,
  },
  acquiredClients: {
    title: "Acquired clients",
    format: "text",
    content: `Clients not active in the first period and active in the second (positive Client variance). ${activity} ${bySign}`,
  },
  stepTotal: {
    title: "Total of the step",
    format: "text",
    content:
      "The sum of this variance type and sign between the two periods: the step of the waterfall this page explains. Beside it, the step against the first period's MRR, and the net change of MRR from every step together.",
  },
  stepContributors: {
    title: "Contributors",
    format: "text",
    content:
      "Who makes up the step: clients for New and Lost clients and for transfers, otherwise each service of a client. Each contributor's part is its own variance of this type and sign; together they add up to the step's total to the cent.",
  },
  stepLargest: {
    title: "Largest contributor",
    format: "text",
    content: "The contributor with the largest part of the step, and its share of the step's total.",
  },
  stepHistory: {
    title: "The step month by month",
    format: "text",
    content:
      "This variance type and sign for each month of the range against the month before; the month compared on this page is marked. A month opens the same step for that month.",
  },
  specificMrr: {
    title: "MRR of the subject",
    format: "text",
    content:
      "The subject's MRR (or margin) in each of the two periods, from the Recurring lines of the client, service or salesperson after exclusions, and the change between them.",
  },
  specificRank: {
    title: "Rank",
    format: "text",
    content:
      "The client's place among all clients by MRR in the second period, 1 = the largest. Expand the card to see every client ranked.",
  },
  specificContribution: {
    title: "Contribution",
    format: "text",
    content:
      "The client's share of the total MRR in the second period. Expand the card to see every client's share.",
  },
  specificShare: {
    title: "Share of MRR",
    format: "text",
    content:
      "The subject's MRR as a share of all MRR in the second period (with the page's other filters), and the same share in the first period.",
  },
  specificProfile: {
    title: "Profile",
    format: "text",
    content: `What the subject is: a client's code, salesperson, the first and last months it was active and its services in the second period; a service's stock type, category and clients; a salesperson's clients and transfers. ${activity}`,
  },
  specificHistory: {
    title: "History",
    format: "text",
    content:
      "Each month of the range in which the subject's MRR moved, newest first: what moved it (the variance types of that month against the month before), the net change and the MRR after it. Months without a change are left out. A month opens this page comparing that month with the one before.",
  },
  specificDonut: {
    title: "By dimension",
    format: "text",
    content:
      "The subject's MRR in the second period split by service, stock type, salesperson or client size band, with each part's share.",
  },
  invoiceLines: {
    title: "Invoice lines",
    format: "text",
    content:
      "The imported invoice lines behind this view: those dated in the two periods, and those whose service period reaches into them (a line with a service period is spread evenly over its months). Download them as CSV from the Invoice Data page.",
  },
  forecastBacktest: {
    title: "Back-tested error",
    format: "html",
    content:
      "<p>How well the forecast's method did on the past: each of the last months (up to 12) is forecast one month ahead from the months before it, and compared with what happened.</p><p>MAPE is the mean absolute percentage error, MAE the mean absolute error in money. The method needs at least 4 months of data.</p>",
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
