import { lazy, Suspense } from "react";
import { type GridView, gridIfLoaded, loadGrid, preloadGrid } from "./grid-loader";
import type { DataGridProps } from "./grid-types";

export * from "./columns";
export { exportCsv } from "./csv";
export type * from "./grid-types";

// The AG Grid half (grid-loader.ts), rendered directly once there (see the chart door for why).
// lazy() forgets the row type; the view is generic over it.
const LazyGridView = lazy(loadGrid) as unknown as GridView;

export { preloadGrid };

/**
 * The grid door: every table of rows in the app is AG Grid Community, loaded lazily in a chunk of
 * its own with only the modules used registered (grid-view.tsx). Small tables pass `rows`; large
 * ones a server `source` that pages, sorts and filters on the server.
 */
export function DataGrid<Row>(props: DataGridProps<Row>) {
  const GridView = gridIfLoaded() ?? LazyGridView;
  return (
    <section className="grid-frame" aria-label={props.label}>
      <Suspense fallback={<div className="grid grid--loading" style={{ height: props.height ?? 300 }} />}>
        <GridView<Row> {...props} />
      </Suspense>
    </section>
  );
}
