import { type Kysely, sql, type Transaction } from "kysely";
import type { IdMap } from "../cube/monthly-cube";
import type { Schema } from "../db/schema";
import type { DimensionChanges, KnownDimensions } from "./read-import-file";

/**
 * How an import stores its lines (docs/storage.md): the file is loaded with binary COPY into a
 * staging table of the transaction (`import_lines`, the file's own ids), then merged into
 * `invoice_lines` with set-based SQL, and the monthly cube is changed cell by cell by what the file
 * adds and what it replaces (`applyCubeChanges`). Nothing is read or written but the lines the file
 * names and the cube cells they fall in.
 */

type Tx = Transaction<Schema> | Kysely<Schema>;

/** Held by an import while it gives clients, items and salespeople new ids (to its end). */
const dimensionIdsLock = 7_270_102;

/**
 * The organisation's clients, items and salespeople with their ids, and the next ids of their
 * sequences. Ids stay unique across organisations, as if each row took `nextval`: the import holds
 * a lock that other imports wait for until it has moved the sequences past the ids it gave.
 */
export async function readKnownDimensions(tx: Tx, organisationId: string): Promise<KnownDimensions> {
  await sql`select pg_advisory_xact_lock(${dimensionIdsLock})`.execute(tx);
  // One after another: the transaction is one connection.
  const clients = await sql<{ key: string; id: number }>`select code as key, id::float8 as id from clients
    where organisation_id = ${organisationId}`.execute(tx);
  const items = await sql<{ key: string; id: number }>`select code as key, id::float8 as id from items
    where organisation_id = ${organisationId}`.execute(tx);
  const salespeople = await sql<{ key: string; id: number }>`select name as key, id::float8 as id
    from salespeople where organisation_id = ${organisationId}`.execute(tx);
  const next = await sql<{ clients: number; items: number; salespeople: number }>`select
    nextval(pg_get_serial_sequence('clients', 'id'))::float8 as clients,
    nextval(pg_get_serial_sequence('items', 'id'))::float8 as items,
    nextval(pg_get_serial_sequence('salespeople', 'id'))::float8 as salespeople`.execute(tx);
  const pairs = (rows: { key: string; id: number }[]) => rows.map((r): [string, number] => [r.key, r.id]);
  const ids = next.rows[0]!;
  return {
    clients: pairs(clients.rows),
    items: pairs(items.rows),
    salespeople: pairs(salespeople.rows),
    nextClientId: ids.clients,
    nextItemId: ids.items,
    nextSalespersonId: ids.salespeople,
  };
}

/**
 * Writes what an import says of clients, items and salespeople: new ones with the ids the lines
 * carry, names of known ones updated when the file gives one, an item's stock type, and its
 * category when the file gives one. Each sequence is moved past the ids given here.
 */
export async function writeDimensions(tx: Tx, organisationId: string, changes: DimensionChanges) {
  const { clients, items, salespeople } = changes;
  if (clients.length)
    await sql`insert into clients (organisation_id, id, code, name)
      select ${organisationId}, * from unnest(${clients.map((c) => c.id)}::bigint[], ${clients.map((c) => c.code)}::text[],
        ${clients.map((c) => c.name)}::text[])
      on conflict (organisation_id, code) do update
        set name = case when excluded.name <> '' then excluded.name else clients.name end`.execute(tx);
  if (items.length)
    await sql`insert into items (organisation_id, id, code, name, stock_type, category)
      select ${organisationId}, * from unnest(${items.map((i) => i.id)}::bigint[], ${items.map((i) => i.code)}::text[],
        ${items.map((i) => i.name)}::text[], ${items.map((i) => i.stockType)}::text[], ${items.map((i) => i.category)}::text[])
      on conflict (organisation_id, code) do update
        set name = case when excluded.name <> '' then excluded.name else items.name end,
            stock_type = excluded.stock_type,
            category = coalesce(excluded.category, items.category)`.execute(tx);
  if (salespeople.length)
    await sql`insert into salespeople (organisation_id, id, name)
      select ${organisationId}, * from unnest(${salespeople.map((s) => s.id)}::bigint[], ${salespeople.map((s) => s.name)}::text[])`.execute(
      tx,
    );
  for (const [table, rows] of [
    ["clients", clients],
    ["items", items],
    ["salespeople", salespeople],
  ] as const) {
    const max = rows.reduce((m, r) => Math.max(m, r.id), 0);
    if (max)
      await sql`select setval(s, ${max}) from (select pg_get_serial_sequence(${table}, 'id') as s) q
        where coalesce(pg_sequence_last_value(s::regclass), 0) < ${max}`.execute(tx);
  }
}

/**
 * Holds the organisation's row until the transaction ends (`for key share`, what a foreign key's
 * check takes): an import or a restore writes lines of an organisation that exists, and the
 * organisation is not deleted (with its lines, docs/storage.md) before they are committed. Run once,
 * at the start of an import or restore; invoice lines have no foreign keys of their own.
 */
export async function holdOrganisation(tx: Tx, organisationId: string) {
  const held = await sql`select 1 from organisations where id = ${organisationId} for key share`.execute(tx);
  if (!held.rows.length) throw new Error(`Organisation ${organisationId} does not exist (deleted?)`);
}

/**
 * Checks, once for the whole import, that the ids its lines are given (`ids`, written by
 * `writeDimensions` in the same transaction) are clients, items and salespeople of the organisation:
 * the check the foreign keys made line by line (docs/storage.md, "Keys checked once per import").
 * The work is in proportion to the file's distinct dimensions, not its lines.
 */
export async function checkDimensionIds(tx: Tx, organisationId: string, ids: IdMap) {
  const given = (list: readonly number[]) => list.slice(1).map(String);
  const missing = await sql<{ dimension: string; id: string }>`
    select 'client' as dimension, g.id::text as id from unnest(${given(ids.clientId)}::bigint[]) g (id)
      where not exists (select from clients c where c.organisation_id = ${organisationId} and c.id = g.id)
    union all
    select 'item', g.id::text from unnest(${given(ids.itemId)}::bigint[]) g (id)
      where not exists (select from items i where i.organisation_id = ${organisationId} and i.id = g.id)
    union all
    select 'salesperson', g.id::text from unnest(${given(ids.salespersonId)}::bigint[]) g (id)
      where not exists (select from salespeople p where p.organisation_id = ${organisationId} and p.id = g.id)
    limit 1`.execute(tx);
  const row = missing.rows[0];
  if (row) throw new Error(`The import would give lines ${row.dimension} id ${row.id}, which is not stored`);
}

/** Creates the staging table an import loads its file into (dropped when the transaction ends). */
export async function createStagingTable(tx: Tx) {
  await sql`create temp table import_lines (
    invoice_number text collate "C" not null,
    line_number integer not null,
    invoice_date date not null,
    client_id integer not null,
    item_id integer not null,
    salesperson_id integer not null,
    quantity numeric(18, 4) not null,
    unit_price numeric(18, 4),
    amount_cents bigint not null,
    cost_cents bigint not null,
    service_from date,
    service_to date,
    record_type text not null
  ) on commit drop`.execute(tx);
}

/**
 * Whether the organisation has stored lines. When it has none (a first import), the import replaces
 * nothing: it neither looks for the lines its file replaces nor gathers the staged lines' statistics
 * to find them (docs/storage.md).
 */
export async function hasStoredLines(tx: Tx, organisationId: string): Promise<boolean> {
  const line =
    await sql`select 1 from invoice_lines where organisation_id = ${organisationId} limit 1`.execute(tx);
  return line.rows.length > 0;
}

/**
 * The name of the organisation's partition of `invoice_lines`: `invoice_lines_` and its id without
 * dashes, as the migration's `invoice_line_partition` names it (never anything a user gives).
 * docs/storage.md, "A partition per organisation".
 */
export function linePartition(organisationId: string) {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(organisationId))
    throw new Error(`Not an organisation id: ${JSON.stringify(organisationId)}`);
  return `invoice_lines_${organisationId.toLowerCase().replace(/-/g, "")}`;
}

/** Whether the organisation has its partition of `invoice_lines` (its first import creates it). */
export async function hasLinePartition(tx: Tx, organisationId: string): Promise<boolean> {
  const found = await sql<{
    found: boolean;
  }>`select to_regclass(invoice_line_partition(${organisationId}::uuid))
    is not null as found`.execute(tx);
  return found.rows[0]!.found;
}

/**
 * Creates the organisation's partition, empty, if it has none: for a writer of lines other than an
 * import (a restore), which cannot insert them into `invoice_lines` without it.
 */
export async function ensureLinePartition(tx: Tx, organisationId: string) {
  if (await hasLinePartition(tx, organisationId)) return;
  await sql`select create_invoice_line_table(${organisationId}::uuid)`.execute(tx);
  await sql`select attach_invoice_line_table(${organisationId}::uuid)`.execute(tx);
}

/**
 * Gives the planner the staged lines' statistics (a temporary table has none), so that a file of
 * a few lines is joined to the stored ones by their key, not by reading them all.
 */
export async function analyzeStagedLines(tx: Tx) {
  await sql`analyze import_lines`.execute(tx);
}

/**
 * Replaces the organisation's lines with the keys of the staged lines by the staged lines (the
 * file's ids mapped by `ids`, written by job `jobId`). The lines replaced must have been kept
 * (the import's undo record, `takeUndoRecord`) and taken off the cube before. `hasLines` false:
 * the organisation has none (`hasStoredLines`), so there is nothing to delete. A first import
 * of an organisation without a partition stages nothing: see `createFreshLineTable`.
 */
export async function mergeStagedLines(
  tx: Tx,
  organisationId: string,
  jobId: string,
  ids: IdMap,
  { hasLines = true }: { hasLines?: boolean } = {},
) {
  if (hasLines)
    await sql`delete from invoice_lines l using import_lines s
      where l.organisation_id = ${organisationId}
        and l.invoice_number = s.invoice_number and l.line_number = s.line_number`.execute(tx);
  // Postgres arrays count from 1: the file's id k is element k + 1. One statement, one scan of the
  // staged lines (slices of them each scanned the whole table).
  await sql`insert into invoice_lines (organisation_id, invoice_number, line_number, invoice_date,
        client_id, item_id, salesperson_id, quantity, unit_price, amount_cents, cost_cents,
        service_from, service_to, record_type, import_job_id)
      select ${organisationId}, s.invoice_number, s.line_number, s.invoice_date,
        m.clients[s.client_id + 1], m.items[s.item_id + 1], nullif(m.salespeople[s.salesperson_id + 1], 0),
        s.quantity, s.unit_price, s.amount_cents, s.cost_cents, s.service_from, s.service_to,
        s.record_type, ${jobId}
      from import_lines s,
        -- The arrays once, not cast from their parameters again for every line.
        (select ${ids.clientId.map(String)}::bigint[] as clients, ${ids.itemId.map(String)}::bigint[] as items,
          ${ids.salespersonId.map(String)}::bigint[] as salespeople offset 0) m`.execute(tx);
}

/**
 * A first import of an organisation that has no partition: its lines are copied straight into a
 * new table of the organisation's own (`create_invoice_line_table`), with no staging table, each
 * batch given the stored ids (`withStoredIds`) and frozen as it is written (`COPY … FREEZE`: the
 * table is new in this transaction, so no later reader has to mark its rows). The organisation and
 * the job are the table's defaults until `attachFreshLineTable` builds its key and indexes and
 * makes it the organisation's partition. See docs/storage.md:
 * "A first import: a table of its own, indexed after the load".
 */
export async function createFreshLineTable(tx: Tx, organisationId: string, jobId: string) {
  const table = sql.table(linePartition(organisationId));
  await sql`select create_invoice_line_table(${organisationId}::uuid)`.execute(tx);
  await sql`alter table ${table} alter column organisation_id set default ${sql.lit(organisationId)}::uuid,
    alter column import_job_id set default ${sql.lit(jobId)}::uuid`.execute(tx);
}

/** Ends what `createFreshLineTable` began: no defaults left, its key and indexes, attached. */
export async function attachFreshLineTable(tx: Tx, organisationId: string) {
  await sql`alter table ${sql.table(linePartition(organisationId))} alter column organisation_id drop default,
    alter column import_job_id drop default`.execute(tx);
  await sql`select attach_invoice_line_table(${organisationId}::uuid)`.execute(tx);
}

/** The columns of `invoice_lines` (and `backup_lines`) after `organisation_id`. */
export const lineColumns = sql.raw(`invoice_number, line_number, invoice_date, client_id, item_id,
  salesperson_id, quantity, unit_price, amount_cents, cost_cents, service_from, service_to, record_type,
  import_job_id`);
