import { type Kysely, type RawBuilder, sql } from "kysely";
import type { Schema } from "../db/schema";

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

/** The columns a page may be sorted by (then by key); anything else sorts by invoice date. */
const sortColumns: Record<string, RawBuilder<unknown>> = {
  invoiceDate: sql`l.invoice_date`,
  invoiceNumber: sql`l.invoice_number`,
  amountCents: sql`l.amount_cents`,
  clientCode: sql`c.code`,
  itemCode: sql`i.code`,
};

/**
 * TableInvoiceData's page, read from `invoice_lines` (docs/storage.md): the lines placed in the
 * months (docs/methodology.md, "Spreading": dated there, or with a service period reaching into
 * them) of the record types compared, filtered, sorted by the column asked (then by key), and the
 * count of all that match.
 */
export async function invoiceLineTable(
  db: Kysely<Schema>,
  organisationId: string,
  query: LineTableQuery,
): Promise<{ rows: LineTableRow[]; rowCount: number }> {
  const conditions: RawBuilder<unknown>[] = [
    sql`l.organisation_id = ${organisationId}`,
    sql`l.record_type = any(${[...new Set(query.recordTypes)]}::text[])`,
    // Dated in the months, or with a service period reaching into them: each half of the condition
    // is served by an index of its own (invoice_lines_type_date, invoice_lines_service).
    sql`((l.service_from is null and l.invoice_date >= ${query.first}::date and l.invoice_date < ${query.afterLast}::date)
      or (l.service_from is not null and l.service_to >= ${query.first}::date and l.service_from < ${query.afterLast}::date))`,
  ];
  if (query.clientId !== undefined) conditions.push(sql`l.client_id = ${query.clientId}`);
  if (query.itemId !== undefined) conditions.push(sql`l.item_id = ${query.itemId}`);
  if (query.salespersonId !== undefined) conditions.push(sql`l.salesperson_id = ${query.salespersonId}`);
  if (query.stockType !== undefined) conditions.push(sql`i.stock_type = ${query.stockType}`);
  if (query.excludedClientIds?.size)
    conditions.push(sql`not (l.client_id = any(${[...query.excludedClientIds].map(String)}::bigint[]))`);
  if (query.excludedItemIds?.size)
    conditions.push(sql`not (l.item_id = any(${[...query.excludedItemIds].map(String)}::bigint[]))`);
  if (query.search) {
    const needle = query.search.toLowerCase();
    conditions.push(sql`(strpos(lower(c.code), ${needle}) > 0 or strpos(lower(c.name), ${needle}) > 0
      or strpos(lower(i.code), ${needle}) > 0 or strpos(lower(l.invoice_number), ${needle}) > 0)`);
  }
  const where = sql.join(conditions, sql` and `);
  const from = sql`invoice_lines l
    join clients c on c.organisation_id = l.organisation_id and c.id = l.client_id
    join items i on i.organisation_id = l.organisation_id and i.id = l.item_id`;
  const direction = sql.raw(query.sortDir === "asc" ? "asc" : "desc");
  const sortBy = sortColumns[query.sortBy ?? ""] ?? sortColumns.invoiceDate!;
  const [page, count] = [
    await sql<LineTableRow>`
      select l.invoice_number as "invoiceNumber", l.line_number as "lineNumber",
        to_char(l.invoice_date, 'YYYY-MM-DD') as "invoiceDate", c.code as "clientCode",
        c.name as "clientName", i.code as "itemCode", i.name as "itemName", s.name as salesperson,
        l.quantity::text as quantity,
        l.amount_cents::float8 as "amountCents", l.cost_cents::float8 as "costCents",
        to_char(l.service_from, 'YYYY-MM-DD') as "serviceFrom",
        to_char(l.service_to, 'YYYY-MM-DD') as "serviceTo", l.record_type as "recordType"
      from ${from}
        left join salespeople s on s.organisation_id = l.organisation_id and s.id = l.salesperson_id
      where ${where}
      order by ${sortBy} ${direction}, l.invoice_number, l.line_number
      limit ${query.rowLimit} offset ${query.startRow}`.execute(db),
    // Every line has its client and item (foreign keys): the count joins them only to filter by them.
    await sql<{ n: number }>`select count(*)::int4 as n
      from ${query.search || query.stockType !== undefined ? from : sql`invoice_lines l`} where ${where}`.execute(
      db,
    ),
  ];
  return { rows: page.rows, rowCount: count.rows[0]!.n };
}
