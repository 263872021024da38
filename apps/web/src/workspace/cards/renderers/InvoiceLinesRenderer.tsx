import { type ResponseOf, tableInvoiceData } from "@varia/contracts";
import { useMemo, useState } from "react";
import { api } from "../../../api";
import {
  DataGrid,
  dateColumn,
  exportCsv,
  type GridColumn,
  moneyColumn,
  textColumn,
} from "../../../ui/grid/Grid";
import { analyticsQuery, type ViewFilter } from "../../filters/view-filter";
import { useAlert } from "../../workspace-actors";
import { useCardDrawn } from "../Card";
import type { CardRenderProps } from "../card-types";
import { searchParam } from "../search-param";
import { firstPageSource } from "./first-page-source";

export type InvoicePage = ResponseOf<typeof tableInvoiceData>;
type Row = InvoicePage["rows"][number];

/** Level 4 pages 100 lines at a time. */
export const invoicePageSize = 100;

export function invoiceQuery(
  filter: ViewFilter,
  search: string,
  page: { startRow: number; rowLimit: number; sortBy?: string; sortDir?: "asc" | "desc" },
) {
  return {
    ...analyticsQuery(filter),
    ...searchParam(search),
    startRow: page.startRow,
    rowLimit: page.rowLimit,
    sortBy: page.sortBy ?? "invoiceDate",
    sortDir: page.sortBy ? (page.sortDir ?? "desc") : "asc",
  };
}

/**
 * The columns of the lines; the server sorts by date, invoice number, client and service (by name
 * or code) and amount.
 * What identifies a line and what it is worth come first, so that the amount is in sight on a
 * laptop's screen without scrolling sideways; the codes and the rest follow.
 */
export function invoiceColumns(): GridColumn<Row>[] {
  return [
    dateColumn<Row>("invoiceDate", "Invoice date", { width: 125 }),
    textColumn<Row>("invoiceNumber", "Invoice number", { width: 150, flex: 0, minWidth: 120 }),
    textColumn<Row>("lineNumber", "Line", { width: 65, flex: 0, minWidth: 60, sortable: false }),
    textColumn<Row>("clientName", "Client", { minWidth: 160 }),
    textColumn<Row>("itemName", "Service", { minWidth: 160 }),
    textColumn<Row>("quantity", "Quantity", {
      width: 95,
      flex: 0,
      minWidth: 90,
      sortable: false,
      value: (r) =>
        r.quantity.includes(".") ? r.quantity.replace(/0+$/, "").replace(/\.$/, "") : r.quantity,
    }),
    moneyColumn<Row>("amountCents", "Amount", { width: 130 }),
    moneyColumn<Row>("costCents", "Cost", { width: 120, sortable: false }),
    moneyColumn<Row>("marginCents", "Margin", {
      width: 120,
      sortable: false,
      value: (r) => r.amountCents - r.costCents,
    }),
    textColumn<Row>("salesperson", "Salesperson", { minWidth: 130, sortable: false }),
    textColumn<Row>("clientCode", "Client code", { width: 120, flex: 0, minWidth: 100 }),
    textColumn<Row>("itemCode", "Service code", { width: 130, flex: 0, minWidth: 100 }),
    dateColumn<Row>("serviceFrom", "Service from", { sortable: false }),
    dateColumn<Row>("serviceTo", "Service to", { sortable: false }),
    textColumn<Row>("recordType", "Record type", { width: 120, flex: 0, minWidth: 100, sortable: false }),
  ];
}

/**
 * The totals row under the lines (docs/behaviour.md, "Level 4's lines"): 'Total' under the dates, and the
 * amount, cost and margin of every line listed (not only the page's), whatever the page and order.
 */
export function invoiceTotalsRow(page: Pick<InvoicePage, "totals">): Row {
  return {
    invoiceDate: "Total",
    invoiceNumber: "",
    lineNumber: null as unknown as number,
    clientCode: "",
    clientName: "",
    itemCode: "",
    itemName: "",
    salesperson: null,
    quantity: "",
    amountCents: page.totals.amountCents,
    costCents: page.totals.costCents,
    serviceFrom: null,
    serviceTo: null,
    recordType: "",
  };
}

/**
 * The invoice lines behind the view (TableInvoiceData), 100 a page, sorted and searched on the
 * server; Download writes exactly the lines of the current filters and search, in the current order.
 */
export function InvoiceLinesRenderer({
  data,
  filter,
  search,
  expanded,
  format,
}: CardRenderProps<InvoicePage>) {
  const drawn = useCardDrawn();
  const alert = useAlert();
  const [progress, setProgress] = useState<{ read: number; total: number } | null>(null);
  const columns = useMemo(() => invoiceColumns(), []);
  const totals = useMemo(() => invoiceTotalsRow(data), [data]);
  const source = useMemo(
    () =>
      firstPageSource(data, invoicePageSize, (page) =>
        api.call(tableInvoiceData, { query: invoiceQuery(filter, search, page) }),
      ),
    [data, filter, search],
  );
  const download = async () => {
    setProgress({ read: 0, total: data.rowCount });
    try {
      await exportCsv({
        columns,
        source,
        sort: source.lastSort(),
        fileName: `Invoice lines ${filter.dateFrom} to ${filter.dateTo}.csv`,
        onProgress: (read, total) => setProgress({ read, total }),
      });
    } catch {
      alert("The CSV file could not be downloaded.", "Please try again.");
    } finally {
      setProgress(null);
    }
  };
  return (
    <div className="invoice-lines">
      <div className="activity__summary">
        <p>
          <strong>{format.count(data.rowCount)}</strong> {data.rowCount === 1 ? "line" : "lines"}
          {search ? ` matching '${search}'` : ""}
        </p>
        <button
          type="button"
          className="button button--primary button--small"
          onClick={download}
          disabled={progress !== null}
          data-screenshot="skip"
        >
          {progress
            ? `Downloading… ${format.count(progress.read)} of ${format.count(progress.total)}`
            : "Download"}
        </button>
      </div>
      <DataGrid<Row>
        label="Invoice lines"
        columns={columns}
        source={source}
        pageSize={invoicePageSize}
        // A header, the rows, the totals row and the pager.
        height={expanded ? 760 : Math.min(680, 140 + Math.min(data.rowCount, invoicePageSize) * 40)}
        getRowId={(r) => `${r.invoiceNumber}-${r.lineNumber}`}
        onRowCount={drawn}
        totals={totals}
        stackOnPhone
      />
    </div>
  );
}
