import type { ViewFilter } from "../filters/view-filter";

/** What a level-3 view is about: a client, a service, a client's service, or a salesperson. */
export type SubjectKind = "client" | "service" | "clientService" | "salesperson";

export function subjectKind(filter: ViewFilter): SubjectKind | null {
  if (filter.thirdClientID && filter.thirdStockItemID) return "clientService";
  if (filter.thirdClientID) return "client";
  if (filter.thirdStockItemID) return "service";
  if (filter.salespersonID) return "salesperson";
  return null;
}

/** The whole the subject is a part of: the view without its subject (for shares of MRR). */
export function wholeOf(filter: ViewFilter): ViewFilter {
  const salesperson = subjectKind(filter) === "salesperson";
  return {
    ...filter,
    thirdClientID: null,
    thirdStockItemID: null,
    ...(salesperson ? { salespersonID: null, salesperson: null } : {}),
  };
}
