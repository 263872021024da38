import { recordTypes } from "@varia/contracts";
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { Schema } from "../db/schema";
import { namedByCodeSql } from "./dimension-names";

/** Which lines level 4 lists (and counts): the same for every page and every order of a view. */
export interface LineTableFilter {
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
}

export interface LinePageQuery extends LineTableFilter {
  sortBy?: string;
  sortDir?: "asc" | "desc";
  startRow: number;
  rowLimit: number;
}

/** The names a page shows, by id (a `Cube` holds them). */
export interface LineNames {
  readonly clients: ReadonlyMap<number, { readonly code: string; readonly name: string }>;
  readonly items: ReadonlyMap<number, { readonly code: string; readonly name: string }>;
  readonly salespeople: ReadonlyMap<number, { readonly name: string }>;
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
const sortColumns: Record<string, { column: RawBuilder<unknown>; joins: boolean }> = {
  invoiceDate: { column: sql`l.invoice_date`, joins: false },
  invoiceNumber: { column: sql`l.invoice_number`, joins: false },
  amountCents: { column: sql`l.amount_cents`, joins: false },
  clientCode: { column: sql`c.code`, joins: true },
  itemCode: { column: sql`i.code`, joins: true },
  clientName: { column: sql`c.name`, joins: true },
  itemName: { column: sql`i.name`, joins: true },
};

const joinClientsAndItems = sql`
  join clients c on c.organisation_id = l.organisation_id and c.id = l.client_id
  join items i on i.organisation_id = l.organisation_id and i.id = l.item_id`;

/** The conditions of the filter besides the months and record types, and whether they need `c` and `i`. */
function filterConditions(organisationId: string, filter: LineTableFilter) {
  const conditions: RawBuilder<unknown>[] = [sql`l.organisation_id = ${organisationId}`];
  if (filter.clientId !== undefined) conditions.push(sql`l.client_id = ${filter.clientId}`);
  if (filter.itemId !== undefined) conditions.push(sql`l.item_id = ${filter.itemId}`);
  if (filter.salespersonId !== undefined) conditions.push(sql`l.salesperson_id = ${filter.salespersonId}`);
  if (filter.stockType !== undefined) conditions.push(sql`i.stock_type = ${filter.stockType}`);
  if (filter.excludedClientIds?.size)
    conditions.push(sql`not (l.client_id = any(${[...filter.excludedClientIds].map(String)}::bigint[]))`);
  if (filter.excludedItemIds?.size)
    conditions.push(sql`not (l.item_id = any(${[...filter.excludedItemIds].map(String)}::bigint[]))`);
  if (filter.search) {
    const needle = filter.search.toLowerCase();
    conditions.push(sql`(strpos(lower(c.code), ${needle}) > 0 or strpos(lower(c.name), ${needle}) > 0
      or strpos(lower(i.code), ${needle}) > 0 or strpos(lower(l.invoice_number), ${needle}) > 0)`);
  }
  return { conditions, joins: Boolean(filter.search) || filter.stockType !== undefined };
}

/** Lines without a service period, dated in the months (docs/methodology.md, "Spreading"). */
const datedIn = (filter: LineTableFilter) =>
  sql`l.service_from is null and l.invoice_date >= ${filter.first}::date and l.invoice_date < ${filter.afterLast}::date`;
/** Lines with a service period that reaches into the months. */
const spreadInto = (filter: LineTableFilter) =>
  sql`l.service_from is not null and l.service_to >= ${filter.first}::date and l.service_from < ${filter.afterLast}::date`;

/**
 * Where the lines of the filter are placed, each condition served by an index of its own
 * (docs/storage.md, "Level 4's page"): one per record type for the lines dated in the months, in
 * the partial index of that record type's lines by date (`invoice_lines_actual_date` and the others),
 * and one for the lines with a service period reaching into them (`invoice_lines_service`). The
 * record type is written into the SQL as a literal, not a parameter, so that the planner sees that
 * the condition implies the partial index's `record_type = 'Actual'`: each is first checked to be
 * one of `recordTypes`.
 */
function placements(filter: LineTableFilter): {
  datedIn: RawBuilder<unknown>[];
  spreadInto: RawBuilder<unknown>;
} {
  const types = [...new Set(filter.recordTypes)];
  for (const type of types)
    if (!(recordTypes as readonly string[]).includes(type))
      throw new Error(`Not a record type: ${JSON.stringify(type)} (one of ${recordTypes.join(", ")})`);
  return {
    datedIn: types.map((type) => sql`l.record_type = ${sql.lit(type)} and ${datedIn(filter)}`),
    spreadInto: sql`l.record_type = any(${types}::text[]) and ${spreadInto(filter)}`,
  };
}

/**
 * A page of TableInvoiceData, read from `invoice_lines` (docs/storage.md, "Level 4's page"): the
 * lines placed in the months (dated there, or with a service period reaching into them) of the
 * record types compared, filtered, sorted by the column asked, then by invoice number and line
 * number, all in the direction asked.
 *
 * The lines without a service period are read per record type, in the order of that record type's
 * partial index, `invoice_lines_actual_date (invoice_date, invoice_number, line_number) where
 * record_type = 'Actual'` and its like (within the organisation's partition), when sorted by date:
 * the first `startRow + rowLimit` of each, not all the months' lines sorted. The lines with a
 * service period are found by `invoice_lines_service` and sorted.
 * The page is the first rows of these few. Clients, items and salespeople are named from `names`
 * (the organisation's, as the cube cache holds them); one that is not there yet is read.
 */
export async function invoiceLinePage(
  db: Kysely<Schema>,
  organisationId: string,
  query: LinePageQuery,
  names: LineNames,
): Promise<LineTableRow[]> {
  const page = await invoiceLinePageQuery(organisationId, query).execute(db);
  const lines = page.rows[0]?.lines ?? [];
  const named = await withMissingNames(db, organisationId, lines, names);
  return lines.map((line): LineTableRow => {
    const [
      invoiceNumber,
      lineNumber,
      invoiceDate,
      clientId,
      itemId,
      salespersonId,
      quantity,
      amountCents,
      costCents,
      serviceFrom,
      serviceTo,
      recordType,
    ] = line;
    const client = named.clients.get(clientId);
    const item = named.items.get(itemId);
    return {
      invoiceNumber,
      lineNumber,
      invoiceDate,
      clientCode: client?.code ?? "",
      clientName: client?.name ?? "",
      itemCode: item?.code ?? "",
      itemName: item?.name ?? "",
      salesperson: salespersonId === null ? null : (named.salespeople.get(salespersonId)?.name ?? null),
      quantity,
      amountCents,
      costCents,
      serviceFrom,
      serviceTo,
      recordType,
    };
  });
}

/** The query of `invoiceLinePage`: its page of lines as one JSON array (checked with `explain` in tests). */
export function invoiceLinePageQuery(organisationId: string, query: LinePageQuery) {
  const sort = sortColumns[query.sortBy ?? ""] ?? sortColumns.invoiceDate!;
  const direction = sql.raw(query.sortDir === "asc" ? "asc" : "desc");
  const order = (sortColumn: RawBuilder<unknown>) =>
    sql`${sortColumn} ${direction}, l.invoice_number ${direction}, l.line_number ${direction}`;
  const filter = filterConditions(organisationId, query);
  const from =
    filter.joins || sort.joins ? sql`invoice_lines l ${joinClientsAndItems}` : sql`invoice_lines l`;
  const reach = query.startRow + query.rowLimit;
  // Each part carries its sort value out (`sort_value`), so the page is ordered without joins.
  const part = (placement: RawBuilder<unknown>) =>
    sql`(select l.*, ${sort.column} as sort_value from ${from}
      where ${sql.join([...filter.conditions, placement], sql` and `)}
      order by ${order(sort.column)} limit ${reach})`;
  const placed = placements(query);
  const parts = [...placed.datedIn.map(part), part(placed.spreadInto)];
  // The page comes back as one JSON value, a line an array in the order of `LineValues`: PGlite
  // hands each field of a result to JavaScript on its own, which for 100 rows of 12 columns cost
  // more than the query (docs/storage.md, "Level 4's page").
  return sql<{ lines: LineValues[] | null }>`
    select json_agg(json_build_array(l.invoice_number, l.line_number, l.invoice_date, l.client_id,
        l.item_id, l.salesperson_id, l.quantity::text, l.amount_cents, l.cost_cents, l.service_from,
        l.service_to, l.record_type) order by ${order(sql`l.sort_value`)}) as lines
    from (select * from (${sql.join(parts, sql` union all `)}) l
      order by ${order(sql`l.sort_value`)}
      limit ${query.rowLimit} offset ${query.startRow}) l`;
}

/** A line of a page as the query gives it (dates as YYYY-MM-DD, as JSON writes them). */
type LineValues = [
  invoiceNumber: string,
  lineNumber: number,
  invoiceDate: string,
  clientId: number,
  itemId: number,
  salespersonId: number | null,
  quantity: string,
  amountCents: number,
  costCents: number,
  serviceFrom: string | null,
  serviceTo: string | null,
  recordType: string,
];

/**
 * `names`, with the clients, items and salespeople of `lines` that it lacks read from the database
 * (written by an import that the cube cache has not seen yet).
 */
async function withMissingNames(
  db: Kysely<Schema>,
  organisationId: string,
  lines: readonly LineValues[],
  names: LineNames,
): Promise<LineNames> {
  const missing = <T>(ids: Iterable<number | null>, known: ReadonlyMap<number, T>) =>
    [...new Set(ids)].filter((id): id is number => id !== null && !known.has(id)).map(String);
  const clients = missing(
    lines.map((line) => line[3]),
    names.clients,
  );
  const items = missing(
    lines.map((line) => line[4]),
    names.items,
  );
  const salespeople = missing(
    lines.map((line) => line[5]),
    names.salespeople,
  );
  if (clients.length + items.length + salespeople.length === 0) return names;
  const read = await sql<{ kind: "client" | "item" | "salesperson"; id: number; code: string; name: string }>`
    select 'client' as kind, id::int4 as id, code, ${namedByCodeSql()} as name from clients
      where organisation_id = ${organisationId} and id = any(${clients}::bigint[])
    union all select 'item', id::int4, code, ${namedByCodeSql()} from items
      where organisation_id = ${organisationId} and id = any(${items}::bigint[])
    union all select 'salesperson', id::int4, '', name from salespeople
      where organisation_id = ${organisationId} and id = any(${salespeople}::bigint[])`.execute(db);
  const more = {
    clients: new Map(names.clients),
    items: new Map(names.items),
    salespeople: new Map(names.salespeople),
  };
  for (const row of read.rows) {
    if (row.kind === "client") more.clients.set(row.id, row);
    else if (row.kind === "item") more.items.set(row.id, row);
    else more.salespeople.set(row.id, row);
  }
  return more;
}

/** How many lines a view of TableInvoiceData lists and what they add up to (their totals row). */
export interface LineCount {
  rowCount: number;
  amountCents: number;
  costCents: number;
}

/**
 * How many lines a view of TableInvoiceData lists (every line `invoiceLinePage` could page through)
 * and the sums of their amounts and costs, read in the same pass.
 */
export async function countInvoiceLines(
  db: Kysely<Schema>,
  organisationId: string,
  query: LineTableFilter,
): Promise<LineCount> {
  const count = await countInvoiceLinesQuery(organisationId, query).execute(db);
  const row = count.rows[0]!;
  return { rowCount: row.n, amountCents: Number(row.amount), costCents: Number(row.cost) };
}

/** The query of `countInvoiceLines` (checked with `explain` in tests). */
export function countInvoiceLinesQuery(organisationId: string, query: LineTableFilter) {
  const filter = filterConditions(organisationId, query);
  // Every line has its client and item (checked once per import, docs/storage.md): the count joins
  // them only to filter by them.
  const from = filter.joins ? sql`invoice_lines l ${joinClientsAndItems}` : sql`invoice_lines l`;
  // Each placement is served by an index of its own (`placements`).
  const placed = placements(query);
  const where = sql.join(
    [
      ...filter.conditions,
      sql`(${sql.join(
        [...placed.datedIn, placed.spreadInto].map((condition) => sql`(${condition})`),
        sql` or `,
      )})`,
    ],
    sql` and `,
  );
  // The sums come back as text (bigint), exact in JavaScript up to 2^53 cents.
  return sql<{ n: number; amount: string; cost: string }>`select count(*)::int4 as n,
    coalesce(sum(l.amount_cents), 0)::text as amount, coalesce(sum(l.cost_cents), 0)::text as cost
    from ${from} where ${where}`;
}
