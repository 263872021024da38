import { lazy, type ReactNode, Suspense } from "react";
import type { DataGridProps } from "./grid-types";

export * from "./columns";
export { exportCsv } from "./csv";
export type * from "./grid-types";

const loadGrid = () => import("./grid-view");
// lazy() forgets the row type; the view is generic over it.
const GridView = lazy(loadGrid) as unknown as <Row>(props: DataGridProps<Row>) => ReactNode;

/** Starts loading the grid chunk (AG Grid) before the first grid needs it. */
export function preloadGrid() {
  void loadGrid();
}

/**
 * The grid door: every table of rows in the app is AG Grid Community, loaded lazily in a chunk of
 * its own with only the modules used registered (grid-view.tsx). Small tables pass `rows`; large
 * ones a server `source` that pages, sorts and filters on the server.
 */
export function DataGrid<Row>(props: DataGridProps<Row>) {
  return (
    <section className="grid-frame" aria-label={props.label}>
      <Suspense fallback={<div className="grid grid--loading" style={{ height: props.height ?? 300 }} />}>
        <GridView<Row> {...props} />
      </Suspense>
    </section>
  );
}
