import { type DimensionNames, useDimensionNames } from "./use-dimension-names";
import type { ViewFilter } from "./view-filter";

export type FilterNames = Omit<DimensionNames, "unknown">;

/**
 * The names of the client, service and salesperson a view is filtered by when its address names
 * them by id only (a shared link, or a detail's subject made a filter on the way to a list), so
 * that a filter reads 'Client: Acme Ltd', not 'Client: #18'.
 */
export function useFilterNames(filter: ViewFilter): FilterNames {
  const { unknown: _, ...names } = useDimensionNames(
    {
      clientID: filter.client ? null : filter.clientID,
      stockItemID: filter.stockItem ? null : filter.stockItemID,
      salespersonID: filter.salesperson ? null : filter.salespersonID,
    },
    filter,
  );
  return names;
}
