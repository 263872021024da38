import type { ServerPage, ServerQuery, ServerSource } from "../../../ui/grid/Grid";

/** The order a grid last asked for: what its Download CSV writes the rows in. */
export interface GridSort {
  sortBy?: string;
  sortDir?: "asc" | "desc";
}

/** A card grid's server source that remembers the order the grid last asked for. */
export type CardGridSource<Row> = ServerSource<Row> & { lastSort(): GridSort };

/**
 * A grid's server source whose first page came with its card: the grid's first ask (page 0, the
 * default order) takes it instead of asking again; any other page or order asks the server.
 */
export function firstPageSource<Row>(
  first: ServerPage<Row>,
  pageSize: number,
  ask: (query: ServerQuery) => Promise<ServerPage<Row>>,
): CardGridSource<Row> {
  let kept: ServerPage<Row> | null = first;
  let sort: GridSort = {};
  const source: ServerSource<Row> = async (query) => {
    sort = query.sortBy ? { sortBy: query.sortBy, sortDir: query.sortDir ?? "desc" } : {};
    if (kept && query.startRow === 0 && !query.sortBy && query.rowLimit === pageSize) {
      const page = kept;
      kept = null;
      return page;
    }
    return ask(query);
  };
  return Object.assign(source, { lastSort: () => sort });
}
