import { type ComponentType, lazy, type ReactNode, Suspense } from "react";
import type { DataGridProps } from "./grid-types";

export * from "./columns";
export { exportCsv } from "./csv";
export type * from "./grid-types";

/** The AG Grid half, loaded once; rendered directly once there (see the chart door for why). */
type View = <Row>(props: DataGridProps<Row>) => ReactNode;
let loadedGrid: View | null = null;
let loading: Promise<{ default: ComponentType<DataGridProps<unknown>> }> | null = null;
const loadGrid = () => {
  loading ??= import("./grid-view").then((module) => {
    loadedGrid = module.default as View;
    return module as { default: ComponentType<DataGridProps<unknown>> };
  });
  return loading;
};
// lazy() forgets the row type; the view is generic over it.
const LazyGridView = lazy(loadGrid) as unknown as View;

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
  const GridView = loadedGrid ?? LazyGridView;
  return (
    <section className="grid-frame" aria-label={props.label}>
      <Suspense fallback={<div className="grid grid--loading" style={{ height: props.height ?? 300 }} />}>
        <GridView<Row> {...props} />
      </Suspense>
    </section>
  );
}
