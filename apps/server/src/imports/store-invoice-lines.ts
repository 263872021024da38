import { type Kysely, sql, type Transaction } from "kysely";
import { uuidBytes } from "../db/binary-copy";
import type { BulkSession } from "../db/database";
import type { Schema } from "../db/schema";
import { readLineBlocks } from "../lines/line-blocks-store";
import { CubeCellsBuilder, type CubeColumns, cubeCopyColumns, encodeCubeCopy } from "./cube-cells";
import type { DimensionChanges, KnownDimensions } from "./read-import-file";

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

/** Replaces the organisation's monthly cube with the given cells. */
export async function replaceMonthlyCube(session: BulkSession, organisationId: string, cells: CubeColumns) {
  await session.db.deleteFrom("monthly_cube").where("organisation_id", "=", organisationId).execute();
  if (cells.month.length)
    await session.copyBinary(
      "monthly_cube",
      cubeCopyColumns,
      encodeCubeCopy(uuidBytes(organisationId), cells),
    );
}

/**
 * Rebuilds an organisation's monthly cube (DESIGN 7.1) from its stored lines: a line sits in its
 * invoice month, or is spread over the whole months from ServiceFrom to ServiceTo (see
 * `CubeCellsBuilder`).
 */
export async function rebuildMonthlyCube(session: BulkSession, organisationId: string) {
  const cube = new CubeCellsBuilder();
  for (const { block } of await readLineBlocks(session, organisationId)) cube.addBlock(block);
  await replaceMonthlyCube(session, organisationId, cube.finish());
}
