import type { LayoutItem } from "../cards/CardGrid";
import type { SubjectKind } from "../cards/subject";

/**
 * Level 3's layouts, one per subject. A client: its MRR in both months, its rank and contribution
 * (expanded: every client ranked), its profile, how its MRR moved (the waterfall of the client), its
 * trend, its MRR by dimension, its history (the months its MRR moved, and by what) and its lines (its
 * services). Every subject has its history above its lines. A service: its MRR, its share, its
 * profile (stock type, category, clients), how it moved, by dimension, trend and its lines (its
 * clients). A client's service: the same as a client, narrowed to the service. A salesperson: MRR,
 * share, clients and transfers, how it moved (with Transfer), by dimension, trend and lines.
 */
export const level3Layouts: Record<SubjectKind, LayoutItem[]> = {
  client: [
    { card: "subjectMrr", span: 4 },
    { card: "subjectRank", span: 4 },
    { card: "subjectContribution", span: 4 },
    { card: "subjectProfile", span: 4 },
    { card: "waterfall", span: 8 },
    { card: "trend", span: 6 },
    { card: "subjectDonut", span: 6 },
    { card: "subjectHistory", span: 12 },
    { card: "activity", span: 12 },
  ],
  service: [
    { card: "subjectMrr", span: 4 },
    { card: "subjectShare", span: 4 },
    { card: "subjectProfile", span: 4 },
    { card: "waterfall", span: 8 },
    { card: "serviceDonut", span: 4 },
    { card: "trend", span: 12 },
    { card: "subjectHistory", span: 12 },
    { card: "activity", span: 12 },
  ],
  clientService: [
    { card: "subjectMrr", span: 4 },
    { card: "subjectRank", span: 4 },
    { card: "subjectContribution", span: 4 },
    { card: "waterfall", span: 6 },
    { card: "trend", span: 6 },
    { card: "subjectHistory", span: 12 },
    { card: "activity", span: 12 },
  ],
  salesperson: [
    { card: "subjectMrr", span: 4 },
    { card: "subjectShare", span: 4 },
    { card: "subjectProfile", span: 4 },
    { card: "waterfall", span: 8 },
    { card: "subjectDonut", span: 4 },
    { card: "trend", span: 12 },
    { card: "subjectHistory", span: 12 },
    { card: "activity", span: 12 },
  ],
};

/** The performance mark set when every level-3 card is on screen. */
export const level3DrawnMark = "varia:level3-cards-drawn";
