import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from "react";
import { useLibraryWanted } from "../first-drawing";
import { FirstPageTable } from "./FirstPageTable";
import { type GridView, gridIfLoaded, loadGrid } from "./grid-loader";
import type { DataGridProps } from "./grid-types";
import { StackedRows } from "./StackedRows";

export * from "./columns";
export { exportCsv } from "./csv";
export type * from "./grid-types";

// The AG Grid half (grid-loader.ts), rendered directly once there (see the chart door for why).
// lazy() forgets the row type; the view is generic over it.
const LazyGridView = lazy(loadGrid) as unknown as GridView;

/** A phone's width, as the style sheets have it (apps/web/README.md, "Narrow screens"). */
const phoneScreen = "(max-width: 640px)";

/** Whether the screen is a phone's width now; follows the window as it is resized or turned. */
function usePhoneWidth(): boolean {
  return useSyncExternalStore(
    (changed) => {
      const query = window.matchMedia(phoneScreen);
      query.addEventListener("change", changed);
      return () => query.removeEventListener("change", changed);
    },
    () => window.matchMedia(phoneScreen).matches,
    () => false,
  );
}

/**
 * The grid door: every table of rows in the app is AG Grid Community, loaded lazily in a chunk of
 * its own with only the modules used registered (grid-view.tsx). Small tables pass `rows`; large
 * ones a server `source` that pages, sorts and filters on the server.
 *
 * A server table whose screen already holds its first page (`firstPage`) shows that page at once as
 * a plain table (FirstPageTable) and asks for AG Grid when the page is idle, or at once when the
 * table is pointed at or focused; AG Grid takes its place once it has drawn the same page
 * (apps/web/README.md, "Heavy libraries behind one door each").
 */
export function DataGrid<Row>(props: DataGridProps<Row>) {
  const { firstPage } = props;
  const onRowCount = useRef(props.onRowCount);
  onRowCount.current = props.onRowCount;
  const [wanted, want] = useLibraryWanted(!firstPage || gridIfLoaded() !== null);
  const [gridDrawn, setGridDrawn] = useState(false);
  // The first page is the count's first answer: the screen hears of it as it is drawn.
  useLayoutEffect(() => {
    if (firstPage) onRowCount.current?.(firstPage.rowCount);
  }, [firstPage]);
  // The keyboard's focus on the first page (its header) goes on to AG Grid's header when it takes
  // the first page's place, instead of being lost with it.
  const frame = useRef<HTMLDivElement>(null);
  const focusWasOnFirstPage = useRef(false);
  const onFirstDrawn = () => {
    const firstPage = frame.current?.querySelector("[data-first-page]");
    focusWasOnFirstPage.current = firstPage?.contains(document.activeElement) ?? false;
    setGridDrawn(true);
  };
  useEffect(() => {
    if (!gridDrawn || !focusWasOnFirstPage.current) return;
    focusWasOnFirstPage.current = false;
    // AG Grid draws its header a few frames after it is shown: its first cell takes the focus then,
    // unless the keyboard has gone on elsewhere meanwhile.
    let pending = 0;
    let frames = 0;
    const focusHeader = () => {
      const active = document.activeElement;
      if (active && active !== document.body) return;
      const header = frame.current?.querySelector<HTMLElement>(".ag-header-cell");
      if (header) header.focus();
      else if (++frames < 60) pending = requestAnimationFrame(focusHeader);
    };
    focusHeader();
    return () => cancelAnimationFrame(pending);
  }, [gridDrawn]);
  const GridView = gridIfLoaded() ?? LazyGridView;
  // Default: a header, up to 15 rows of 40 px and the pager.
  const height = props.height ?? 40 + Math.min(props.pageSize ?? 25, 15) * 40 + 50;
  const showFirstPage = firstPage && !gridDrawn;
  const stacked = usePhoneWidth() && props.stackOnPhone === true;
  return (
    // A named group, not a region: the card around a table is the landmark, and a second one of the
    // same name (level 4's page, its card and its table are all "Invoice lines") reads as a duplicate.
    // biome-ignore lint/a11y/useSemanticElements: a table's frame, not a form's fieldset
    <div role="group" className="grid-frame" aria-label={props.label} ref={frame}>
      {stacked && (
        <StackedRows<Row>
          columns={props.columns}
          {...(props.source ? { source: props.source } : { rows: props.rows ?? [] })}
          pageSize={props.pageSize}
          totals={props.totals}
          getRowId={props.getRowId}
          emptyText={props.emptyText}
          onRowCount={props.onRowCount}
          onError={props.onError}
        />
      )}
      {!stacked && showFirstPage && (
        <FirstPageTable<Row>
          columns={props.columns}
          page={firstPage}
          pageSize={props.pageSize ?? 25}
          label={props.label}
          height={height}
          emptyText={props.emptyText}
          onWanted={want}
        />
      )}
      {!stacked && wanted && (
        <div className={showFirstPage ? "grid-frame__behind" : undefined}>
          <Suspense fallback={firstPage ? null : <div className="grid grid--loading" style={{ height }} />}>
            <GridView<Row> {...props} height={height} onFirstDrawn={onFirstDrawn} />
          </Suspense>
        </div>
      )}
    </div>
  );
}
