import type { LayoutItem } from "../cards/CardGrid";
import type { VarianceType } from "../filters/view-filter";

/**
 * Level 2's layouts, one per variance type. Every one shows the step's total (the waterfall step it
 * came from), its contributors' count and largest, the largest as bars, the step month by month, and
 * every contributor in a grid: per client for Client and Transfer (their contributions are summed per
 * client), per client and service for the others, with the quantities and unit prices that explain
 * a Price, Volume or Usage change.
 *   [ Total (4) ][ Contributors (4) ][ Largest (4) ]
 *   [ Largest contributors (6) ][ Month by month (6) ]
 *   [ Every contributor (12)                         ]
 */
const head: LayoutItem[] = [
  { card: "stepTotal", span: 4 },
  { card: "stepCount", span: 4 },
  { card: "stepLargest", span: 4 },
  { card: "stepContributors", span: 6 },
  { card: "stepHistory", span: 6 },
];

export const level2Layouts: Record<VarianceType, LayoutItem[]> = {
  Client: [...head, { card: "stepClients", span: 12 }],
  Service: [...head, { card: "stepLines", span: 12 }],
  Price: [...head, { card: "stepLines", span: 12 }],
  Volume: [...head, { card: "stepLines", span: 12 }],
  Usage: [...head, { card: "stepLines", span: 12 }],
  Transfer: [...head, { card: "stepClients", span: 12 }],
};

/** The performance mark set when every level-2 card is on screen. */
export const level2DrawnMark = "varia:level2-cards-drawn";
