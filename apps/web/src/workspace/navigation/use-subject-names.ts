import { useDimensionNames } from "../filters/use-dimension-names";
import type { ViewFilter } from "../filters/view-filter";
import type { SubjectNames } from "./drill-path";

/**
 * The names of a view's level-3 subject (client, service, salesperson) for its crumbs and headings.
 * A detail without a name is of a subject the data has not got (`unknown`). The salesperson is the
 * subject only when no client or service is.
 */
export function useSubjectNames(filter: ViewFilter): SubjectNames {
  const { thirdClientID, thirdStockItemID, salespersonID } = filter;
  return useDimensionNames(
    {
      clientID: thirdClientID,
      stockItemID: thirdStockItemID,
      salespersonID: !thirdClientID && !thirdStockItemID ? salespersonID : null,
    },
    filter,
  );
}
