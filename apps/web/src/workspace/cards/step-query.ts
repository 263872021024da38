import { analyticsQuery, type ViewFilter } from "../filters/view-filter";

/** The filter fields of a level-2 call: the view's, with its variance type and sign. */
export function stepQuery(filter: ViewFilter) {
  return {
    ...analyticsQuery(filter),
    ...(filter.varType ? { varType: filter.varType } : {}),
    ...(filter.sign ? { sign: filter.sign } : {}),
  };
}

/** Whether a type's contributors are clients (Client, Transfer) rather than a client's services. */
export const contributorsAreClients = (filter: ViewFilter) =>
  filter.varType === "Client" || filter.varType === "Transfer";
