import { recordTypes } from "@varia/contracts";
import { dateOfDay, dayNumber } from "../db/binary-copy";
import { formatScaled } from "../imports/decimal";
import type { DimensionNames } from "./dimension-names";
import { compareKeys, type LineBlock } from "./line-block";

export interface LineTableQuery {
  /** First day of the first month and first day after the last month (YYYY-MM-DD). */
  first: string;
  afterLast: string;
  recordTypes: readonly string[];
  clientId?: number;
  itemId?: number;
  salespersonId?: number;
  /** Lines of items of this stock type only. */
  stockType?: string;
  /** Lines of these clients and items are left out (the active exclusion lists). */
  excludedClientIds?: ReadonlySet<number>;
  excludedItemIds?: ReadonlySet<number>;
  /** Matched literally, case-insensitively, in client code and name, item code, invoice number. */
  search?: string;
  sortBy?: string;
  sortDir?: "asc" | "desc";
  startRow: number;
  rowLimit: number;
}

export interface LineTableRow {
  invoiceNumber: string;
  lineNumber: number;
  invoiceDate: string;
  clientCode: string;
  clientName: string;
  itemCode: string;
  itemName: string;
  salesperson: string | null;
  quantity: string;
  amountCents: number;
  costCents: number;
  serviceFrom: string | null;
  serviceTo: string | null;
  recordType: string;
}

/**
 * TableInvoiceData's page: the lines placed in the months (DESIGN 7.1: dated there, or with a
 * service period reaching into them) of the record types compared, filtered, sorted by the column
 * asked (then by key), and the count of all that match.
 */
export function invoiceLineTable(
  blocks: readonly LineBlock[],
  names: DimensionNames,
  query: LineTableQuery,
): { rows: LineTableRow[]; rowCount: number } {
  const first = dayNumber(query.first);
  const afterLast = dayNumber(query.afterLast);
  const types = new Set(query.recordTypes.map((t) => recordTypes.indexOf(t as never)));
  const needle = query.search?.toLowerCase();
  const matches = (text: string | undefined) => text?.toLowerCase().includes(needle!) === true;
  const found: [block: LineBlock, row: number][] = [];
  for (const block of blocks) {
    const c = block.columns;
    for (let row = 0; row < block.count; row++) {
      if (!types.has(c.recordType[row]!)) continue;
      const day = c.invoiceDay[row]!;
      const from = c.serviceFromDay[row]!;
      const to = c.serviceToDay[row]!;
      if ((Number.isNaN(from) ? day : from) >= afterLast || (Number.isNaN(to) ? day : to) < first) continue;
      if (query.clientId !== undefined && c.clientId[row] !== query.clientId) continue;
      if (query.itemId !== undefined && c.itemId[row] !== query.itemId) continue;
      if (query.salespersonId !== undefined && c.salespersonId[row] !== query.salespersonId) continue;
      if (query.stockType !== undefined && names.items.get(c.itemId[row]!)?.stockType !== query.stockType)
        continue;
      if (query.excludedClientIds?.has(c.clientId[row]!) || query.excludedItemIds?.has(c.itemId[row]!))
        continue;
      if (needle) {
        const client = names.clients.get(c.clientId[row]!);
        if (
          !matches(client?.code) &&
          !matches(client?.name) &&
          !matches(names.items.get(c.itemId[row]!)?.code) &&
          !matches(block.invoiceNumbers[row])
        )
          continue;
      }
      found.push([block, row]);
    }
  }
  const byKey = (a: [LineBlock, number], b: [LineBlock, number]) =>
    compareKeys(
      a[0].invoiceNumbers[a[1]]!,
      a[0].columns.lineNumber[a[1]]!,
      b[0].invoiceNumbers[b[1]]!,
      b[0].columns.lineNumber[b[1]]!,
    );
  const value = sortValue(query.sortBy, names);
  const direction = query.sortDir === "asc" ? 1 : -1;
  found.sort((a, b) => {
    const x = value(a[0], a[1]);
    const y = value(b[0], b[1]);
    return (x < y ? -1 : x > y ? 1 : 0) * direction || byKey(a, b);
  });
  const rows = found.slice(query.startRow, query.startRow + query.rowLimit).map(([block, row]) => {
    const c = block.columns;
    const from = c.serviceFromDay[row]!;
    const to = c.serviceToDay[row]!;
    const salesperson = c.salespersonId[row]!;
    return {
      invoiceNumber: block.invoiceNumbers[row]!,
      lineNumber: c.lineNumber[row]!,
      invoiceDate: dateOfDay(c.invoiceDay[row]!),
      clientCode: names.clients.get(c.clientId[row]!)?.code ?? "",
      clientName: names.clients.get(c.clientId[row]!)?.name ?? "",
      itemCode: names.items.get(c.itemId[row]!)?.code ?? "",
      itemName: names.items.get(c.itemId[row]!)?.name ?? "",
      salesperson: salesperson ? (names.salespeople.get(salesperson)?.name ?? null) : null,
      quantity: formatScaled(BigInt(c.quantity[row]!), 4),
      amountCents: c.amountCents[row]!,
      costCents: c.costCents[row]!,
      serviceFrom: Number.isNaN(from) ? null : dateOfDay(from),
      serviceTo: Number.isNaN(to) ? null : dateOfDay(to),
      recordType: recordTypes[c.recordType[row]!]!,
    };
  });
  return { rows, rowCount: found.length };
}

function sortValue(
  sortBy: string | undefined,
  names: DimensionNames,
): (block: LineBlock, row: number) => string | number {
  switch (sortBy) {
    case "invoiceDate":
      return (block, row) => block.columns.invoiceDay[row]!;
    case "invoiceNumber":
      return (block, row) => block.invoiceNumbers[row]!;
    case "amountCents":
      return (block, row) => block.columns.amountCents[row]!;
    case "clientCode":
      return (block, row) => names.clients.get(block.columns.clientId[row]!)?.code ?? "";
    case "itemCode":
      return (block, row) => names.items.get(block.columns.itemId[row]!)?.code ?? "";
    default:
      return (block, row) => block.columns.invoiceDay[row]!;
  }
}
