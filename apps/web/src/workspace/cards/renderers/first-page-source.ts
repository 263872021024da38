import type { ServerPage, ServerQuery, ServerSource } from "../../../ui/grid/Grid";

/**
 * A grid's server source whose first page came with its card: the grid's first ask (page 0, the
 * default order) takes it instead of asking again; any other page or order asks the server.
 */
export function firstPageSource<Row>(
  first: ServerPage<Row>,
  pageSize: number,
  ask: (query: ServerQuery) => Promise<ServerPage<Row>>,
): ServerSource<Row> {
  let kept: ServerPage<Row> | null = first;
  return async (query) => {
    if (kept && query.startRow === 0 && !query.sortBy && query.rowLimit === pageSize) {
      const page = kept;
      kept = null;
      return page;
    }
    return ask(query);
  };
}
