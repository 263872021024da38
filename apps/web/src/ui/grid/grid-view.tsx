import {
  type CellKeyDownEvent,
  CellStyleModule,
  ClientSideRowModelModule,
  type ColDef,
  type FullWidthCellKeyDownEvent,
  type GridApi,
  type GridReadyEvent,
  type ICellRendererParams,
  type IDatasource,
  InfiniteRowModelModule,
  ModuleRegistry,
  PaginationModule,
  PinnedRowModule,
  RowStyleModule,
  themeQuartz,
  ValidationModule,
} from "ag-grid-community";
import { AgGridReact } from "ag-grid-react";
import { useEffect, useMemo, useRef } from "react";
import { useFormat } from "../format";
import { cellText } from "./cell-text";
import { titleIfCut } from "./cut-cell";
import type { DataGridProps, GridColumn, ServerSource } from "./grid-types";

// The modules the app's grids use, registered once for every grid: rows from the screen
// (client-side) or from the server page by page (infinite), the pager, a totals row pinned under
// the rows, and cell and row classes.
ModuleRegistry.registerModules([
  ClientSideRowModelModule,
  InfiniteRowModelModule,
  PaginationModule,
  PinnedRowModule,
  CellStyleModule,
  RowStyleModule,
  ...(import.meta.env.DEV ? [ValidationModule] : []),
]);

/** The app's look: its font, colours and density (no web font is fetched). */
const theme = themeQuartz.withParams({
  fontFamily: "inherit",
  fontSize: 13,
  headerFontSize: 12,
  headerFontWeight: 600,
  headerTextColor: "#475569",
  headerBackgroundColor: "#f8fafc",
  foregroundColor: "#0f172a",
  accentColor: "#4f46e5",
  borderColor: "#e2e8f0",
  wrapperBorderRadius: 8,
  rowHeight: 40,
  headerHeight: 40,
  cellHorizontalPadding: 12,
  oddRowBackgroundColor: "#fcfcfe",
});

const numeric = new Set(["money", "percent", "count", "number"]);

function columnDef<Row>(
  column: GridColumn<Row>,
  write: (c: GridColumn<Row>, v: unknown) => string,
): ColDef<Row> {
  const isNumber = numeric.has(column.kind);
  return {
    colId: column.field,
    headerName: column.header,
    field: column.value ? undefined : (column.field as ColDef<Row>["field"]),
    valueGetter: column.value ? (p) => (p.data ? column.value!(p.data) : undefined) : undefined,
    valueFormatter: (p) => write(column, p.value),
    cellRenderer: column.render
      ? (p: ICellRendererParams<Row>) => (p.data ? column.render!(p.data) : null)
      : undefined,
    sortable: column.sortable ?? true,
    width: column.width,
    minWidth: column.minWidth ?? (column.width ? Math.min(column.width, 90) : undefined),
    flex: column.flex,
    pinned: column.pinned ? "left" : undefined,
    type: isNumber ? "rightAligned" : undefined,
    cellClass: isNumber ? "grid-cell--number" : undefined,
    sortingOrder: isNumber ? ["desc", "asc", null] : ["asc", "desc", null],
    // A header longer than its column goes on to a second line rather than being cut off.
    wrapHeaderText: true,
    autoHeaderHeight: true,
  };
}

type Listeners<Row> = Pick<DataGridProps<Row>, "onRowCount" | "onError">;

function datasource<Row>(source: ServerSource<Row>, listeners: { current: Listeners<Row> }): IDatasource {
  return {
    getRows(params) {
      const sort = params.sortModel[0];
      source({
        startRow: params.startRow,
        rowLimit: params.endRow - params.startRow,
        ...(sort ? { sortBy: sort.colId, sortDir: sort.sort === "asc" ? "asc" : "desc" } : {}),
      }).then(
        (page) => {
          listeners.current.onRowCount?.(page.rowCount);
          params.successCallback(page.rows, page.rowCount);
        },
        (error) => {
          listeners.current.onError?.(error);
          params.failCallback();
        },
      );
    },
  };
}

/**
 * Enter on a cell holding a link (a client, a service, an invoice) follows it, as a click does: the
 * keyboard moves between cells with the arrows, and Tab leaves the grid instead of visiting every
 * cell (apps/web/README.md, "Heavy libraries behind one door each").
 */
function followLinkOnEnter(event: CellKeyDownEvent | FullWidthCellKeyDownEvent) {
  const key = event.event as KeyboardEvent | null | undefined;
  if (key?.key !== "Enter" || key.altKey || key.shiftKey) return;
  const link = (key.target as Element | null)?.querySelector?.("a[href]");
  if (!(link instanceof HTMLElement)) return;
  key.preventDefault();
  link.click();
}

/** AG Grid behind the grid door (Grid.tsx): the lazily loaded half. */
export default function GridView<Row>(props: DataGridProps<Row>) {
  const format = useFormat();
  const api = useRef<GridApi<Row> | null>(null);
  const listeners = useRef<Listeners<Row>>(props);
  listeners.current = props;
  const pageSize = props.pageSize ?? 25;
  const columnDefs = useMemo(
    () => props.columns.map((c) => columnDef(c, (column, value) => cellText(column.kind, value, format))),
    [props.columns, format],
  );
  const source = props.source;

  // A new source (new filters) starts again from the first page.
  useEffect(() => {
    if (api.current && source) api.current.setGridOption("datasource", datasource(source, listeners));
  }, [source]);

  const onGridReady = (event: GridReadyEvent<Row>) => {
    api.current = event.api;
    if (source) event.api.setGridOption("datasource", datasource(source, listeners));
  };

  return (
    // The door gives the height (Grid.tsx), the same as its first page's table.
    <div className="grid" style={{ height: props.height }}>
      <AgGridReact<Row>
        theme={theme}
        columnDefs={columnDefs}
        onGridReady={onGridReady}
        onFirstDataRendered={() => props.onFirstDrawn?.()}
        {...(source
          ? {
              rowModelType: "infinite" as const,
              cacheBlockSize: pageSize,
              maxBlocksInCache: 20,
              infiniteInitialRowCount: pageSize,
            }
          : { rowModelType: "clientSide" as const, rowData: props.rows ?? [] })}
        pagination
        paginationPageSize={pageSize}
        paginationPageSizeSelector={false}
        getRowId={props.getRowId ? (p) => props.getRowId!(p.data) : undefined}
        pinnedBottomRowData={props.totals ? [props.totals] : undefined}
        getRowClass={(p) => (p.node.rowPinned ? "grid-row--total" : undefined)}
        overlayNoRowsTemplate={`<span>${props.emptyText ?? "No information available to show."}</span>`}
        suppressCellFocus={false}
        tabToNextCell={() => false}
        tabToNextHeader={() => false}
        onCellKeyDown={followLinkOnEnter}
        onCellMouseOver={(event) =>
          titleIfCut((event.event?.target as HTMLElement | null)?.closest?.(".ag-cell") ?? null)
        }
        animateRows={false}
        loadThemeGoogleFonts={false}
      />
    </div>
  );
}
