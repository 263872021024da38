import type { LayoutItem } from "../cards/CardGrid";

/**
 * Level 1, the stock type overview: the KPIs, then what explains their change.
 *   [ MRR ][ ARR ][ Clients subscribed ][ ARPA ][ NRR ][ GRR ]
 *   [ Waterfall (8)                    ][ Variance by type (4) ]
 *   [ Trend (6)                 ][ Year-end chart (6)          ]
 *   [ Acquired (4) ][ Lost (4) ][ Revenue by segment (4)       ]
 *   [ Activity table (12)                                      ]
 */
export const level1Layout: LayoutItem[] = [
  { card: "mrr", span: 2 },
  { card: "arr", span: 2 },
  { card: "clientsSubscribed", span: 2 },
  { card: "arpa", span: 2 },
  { card: "nrr", span: 2 },
  { card: "grr", span: 2 },
  { card: "waterfall", span: 8 },
  { card: "varianceByType", span: 4 },
  { card: "trend", span: 6 },
  { card: "christmas", span: 6 },
  { card: "acquiredClients", span: 4 },
  { card: "lostClients", span: 4 },
  { card: "revenueBySegment", span: 4 },
  { card: "activity", span: 12 },
];

/** The performance mark set when every level-1 card is on screen. */
export const level1DrawnMark = "varia:level1-cards-drawn";
