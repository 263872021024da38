import type { ReactNode } from "react";
import { Link } from "react-router";
import { exportCsv, type GridColumn, type GridColumnOptions, textColumn } from "../../../ui/grid/Grid";
import { type ViewFilter, viewHref, viewPaths } from "../../filters/view-filter";
import { useAlert } from "../../workspace-actors";
import { ClientCode } from "./ClientCode";
import type { CardGridSource } from "./first-page-source";

/** The cells of a row that names a client. */
interface ClientCells {
  clientID: number | string;
  clientName: string;
  clientCode: string;
}

/** The cells of a row that names a client and one of its services. */
interface ServiceCells extends ClientCells {
  stockItemID: number | string;
  itemName: string;
}

/** Level 3 of a row's client, or of its client and service. */
export function rowLevel3Href(filter: ViewFilter, row: ClientCells | ServiceCells, service: boolean): string {
  return viewHref(viewPaths.level3, filter, {
    thirdClientID: String(row.clientID),
    thirdStockItemID: service && "stockItemID" in row ? String(row.stockItemID) : null,
  });
}

/** The Client column of a card's grid: the client's name, a link (`href`), over its code (`ClientCode`). */
export function clientLinkColumn<Row extends ClientCells>(
  href: (row: Row) => string,
  options: GridColumnOptions<Row> = {},
): GridColumn<Row> {
  return textColumn<Row>("clientName", "Client", {
    ...options,
    render: (r) => (
      <span className="grid-client">
        <Link to={href(r)}>{r.clientName}</Link>
        <ClientCode name={r.clientName} code={r.clientCode} />
      </span>
    ),
  });
}

/** The Service column of a card's grid: the service's name, a link to level 3 of the client and service. */
export function serviceLinkColumn<Row extends ServiceCells>(
  filter: ViewFilter,
  options: GridColumnOptions<Row> = {},
): GridColumn<Row> {
  return textColumn<Row>("itemName", "Service", {
    minWidth: 180,
    ...options,
    render: (r) => <Link to={rowLevel3Href(filter, r, true)}>{r.itemName}</Link>,
  });
}

/**
 * A card grid's CSV file name: what it lists, '(margin)' in a Margin view as the screens say 'MRR
 * (margin)' (its headers, 'MRR Sep 2026', are the same in both views, and a file passed on alone must
 * not pass for revenue: docs/import.md, "Exports"), the badge shown if any, and the months compared:
 * 'Activity (margin) lost 2026-09 to 2026-10.csv'.
 */
export function gridFileName(
  name: string,
  filter: { dataType: string; dateFrom: string | null; dateTo: string | null },
  detail?: string,
): string {
  const margin = filter.dataType === "Margin" ? " (margin)" : "";
  return `${name}${margin}${detail ? ` ${detail}` : ""} ${filter.dateFrom} to ${filter.dateTo}.csv`;
}

/**
 * Download CSV of a card's grid: every row of the card's filters, in the order the grid shows
 * (`source.lastSort`), with the grid's columns; a failure alerts.
 */
export function useCsvDownload<Row>(
  columns: GridColumn<Row>[],
  source: CardGridSource<Row>,
  fileName: string,
): () => Promise<void> {
  const alert = useAlert();
  return async () => {
    try {
      await exportCsv({ columns, source, sort: source.lastSort(), fileName });
    } catch {
      alert("The CSV file could not be downloaded.", "Please try again.");
    }
  };
}

/** The line over a card's grid: what it holds (`children`) and the Download CSV button. */
export function GridSummary({ children, onDownload }: { children: ReactNode; onDownload: () => void }) {
  return (
    <div className="activity__summary">
      <p>{children}</p>
      <button
        type="button"
        className="button button--secondary button--small"
        onClick={onDownload}
        data-screenshot="skip"
      >
        Download CSV
      </button>
    </div>
  );
}

/** A card grid's height: its rows of the first page (at most `most` pixels), or 720 when expanded. */
export function cardGridHeight(expanded: boolean, rowCount: number, pageSize: number, most: number): number {
  return expanded ? 720 : Math.min(most, 100 + Math.min(rowCount, pageSize) * 40);
}
