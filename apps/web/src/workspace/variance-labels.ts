import type { Sign, VarianceType } from "./filters/view-filter";

/**
 * What each variance type and sign is called on screen (a waterfall step, a breadcrumb, a level-2
 * heading): the analyst's words for the engine's types.
 */
export const varianceStepLabels: Record<VarianceType, Record<Sign, string>> = {
  Client: { Positive: "New clients", Negative: "Lost clients" },
  Service: { Positive: "Services added", Negative: "Services removed" },
  Price: { Positive: "Price increases", Negative: "Price decreases" },
  Volume: { Positive: "Volume up", Negative: "Volume down" },
  Usage: { Positive: "Usage up", Negative: "Usage down" },
  Transfer: { Positive: "Transfers in", Negative: "Transfers out" },
};

export const varianceTypeOrder: VarianceType[] = [
  "Client",
  "Service",
  "Price",
  "Volume",
  "Usage",
  "Transfer",
];

export function varianceStepLabel(type: string, sign: string): string {
  return varianceStepLabels[type as VarianceType]?.[sign as Sign] ?? `${type} ${sign.toLowerCase()}`;
}

/** A label on two lines for a chart's axis ("Services\nadded", "Sep\n2026"). */
export function twoLines(label: string): string {
  const space = label.indexOf(" ");
  return space < 0 ? label : `${label.slice(0, space)}\n${label.slice(space + 1)}`;
}

/** What the dashboards measure: MRR of revenue, or of margin. */
/** "Margin, " before a card's subtitle in a Margin view; nothing in a Revenue view. */
export function marginPrefix(dataType: "Revenue" | "Margin") {
  return dataType === "Margin" ? "Margin, " : "";
}

export function measureName(dataType: "Revenue" | "Margin") {
  return dataType === "Margin" ? "MRR (margin)" : "MRR";
}

/**
 * What level 2 counts for a type: clients (Client and Transfer are summed per client) or services of
 * clients (the other types, per client and service), one or many.
 */
export function contributorNoun(type: string | null, count: number): string {
  const perClient = type === "Client" || type === "Transfer";
  if (count === 1) return perClient ? "client" : "service of a client";
  return perClient ? "clients" : "services of clients";
}
