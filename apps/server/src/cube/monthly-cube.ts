import { recordTypes } from "@varia/contracts";
import { type Kysely, type RawBuilder, sql, type Transaction } from "kysely";
import type { BulkSession } from "../db/database";
import type { Schema } from "../db/schema";
import { CubeCellsBuilder, type CubeColumns, cubeChangeColumns, encodeCubeChanges } from "./cube-cells";

type Tx = Transaction<Schema> | Kysely<Schema>;

/**
 * The monthly cube in the database (docs/storage.md): `monthly_cube`, derived from `invoice_lines`
 * and changed cell by cell by what an import adds and replaces (or a restore puts back).
 */

/** The file's ids (1, 2, …; 0 for none) to the organisation's: element k of each array is k's. */
export interface IdMap {
  clientId: readonly number[];
  itemId: readonly number[];
  salespersonId: readonly number[];
}

const cubePage = 50_000;

interface CubeRowOfLine {
  invoice_number: string;
  line_number: number;
  record_type: string;
  day: number;
  from_day: number | null;
  to_day: number | null;
  client_id: number;
  item_id: number;
  salesperson_id: number;
  quantity: number;
  amount_cents: number;
  cost_cents: number;
}

/**
 * Adds to `cube` (or, `sign` -1, takes off it) the lines of `table` (invoice_lines or backup_lines)
 * that `where` selects, read a page at a time in key order; answers how many lines it read.
 */
export async function addLinesToCube(
  tx: Tx,
  cube: CubeCellsBuilder,
  table: "invoice_lines" | "backup_lines",
  where: RawBuilder<unknown>,
  sign: 1 | -1 = 1,
): Promise<number> {
  const types = new Map(recordTypes.map((t, i) => [t as string, i]));
  let after: { invoice: string; line: number } | null = null;
  let read = 0;
  for (;;) {
    const page: { rows: CubeRowOfLine[] } =
      await sql<CubeRowOfLine>`select invoice_number, line_number, record_type, invoice_date - date '2000-01-01' as day,
        service_from - date '2000-01-01' as from_day, service_to - date '2000-01-01' as to_day,
        client_id::float8 as client_id, item_id::float8 as item_id,
        coalesce(salesperson_id, 0)::float8 as salesperson_id, (quantity * 10000)::float8 as quantity,
        amount_cents::float8 as amount_cents, cost_cents::float8 as cost_cents
      from ${sql.table(table)}
      where ${where}
        ${after ? sql`and (invoice_number, line_number) > (${after.invoice}, ${after.line})` : sql``}
      order by invoice_number, line_number limit ${cubePage}`.execute(tx);
    for (const row of page.rows)
      cube.addLine(
        {
          recordType: types.get(row.record_type)!,
          invoiceDay: row.day,
          serviceFromDay: row.from_day ?? Number.NaN,
          serviceToDay: row.to_day ?? Number.NaN,
          clientId: row.client_id,
          itemId: row.item_id,
          salespersonId: row.salesperson_id,
          quantity: row.quantity,
          amountCents: row.amount_cents,
          costCents: row.cost_cents,
        },
        sign,
      );
    read += page.rows.length;
    if (page.rows.length < cubePage) return read;
    const last = page.rows[page.rows.length - 1]!;
    after = { invoice: last.invoice_number, line: last.line_number };
  }
}

/**
 * Adds cube cells (changes: a cell may add or take off) to the organisation's monthly cube, one
 * statement for all, and deletes the cells no line is left in. `ids` maps the cells' ids as in
 * `mergeStagedLines` (none: they are the organisation's already). `intoEmpty`: the organisation has
 * no cells yet (a first import), so the cells are inserted in key order, with no cell to add to
 * and none to delete.
 */
export async function applyCubeChanges(
  session: BulkSession,
  organisationId: string,
  cells: CubeColumns,
  ids?: IdMap,
  { intoEmpty = false }: { intoEmpty?: boolean } = {},
) {
  if (!cells.month.length) return;
  const tx = session.db;
  await sql`create temp table if not exists cube_changes (
    record_type text not null,
    month date not null,
    client_id bigint not null,
    item_id bigint not null,
    salesperson_id bigint not null,
    quantity numeric(18, 4) not null,
    revenue_cents bigint not null,
    cost_cents bigint not null,
    line_count integer not null
  ) on commit drop`.execute(tx);
  await sql`truncate cube_changes`.execute(tx);
  await session.copyBinary("cube_changes", cubeChangeColumns, encodeCubeChanges(cells, ids));
  if (intoEmpty) {
    // In the key's order, each index entry goes after the last one.
    await sql`insert into monthly_cube (organisation_id, record_type, month, client_id, item_id,
        salesperson_id, quantity, revenue_cents, cost_cents, line_count)
      select ${organisationId}, record_type, month, client_id, item_id, salesperson_id, quantity,
        revenue_cents, cost_cents, line_count
      from cube_changes order by record_type, month, client_id, item_id, salesperson_id`.execute(tx);
    return;
  }
  // As for the staged lines: without statistics the join below would compare every pair.
  await sql`analyze cube_changes`.execute(tx);
  await sql`insert into monthly_cube (organisation_id, record_type, month, client_id, item_id,
      salesperson_id, quantity, revenue_cents, cost_cents, line_count)
    select ${organisationId}, record_type, month, client_id, item_id, salesperson_id, quantity,
      revenue_cents, cost_cents, line_count
    from cube_changes
    on conflict (organisation_id, record_type, month, client_id, item_id, salesperson_id) do update set
      quantity = monthly_cube.quantity + excluded.quantity,
      revenue_cents = monthly_cube.revenue_cents + excluded.revenue_cents,
      cost_cents = monthly_cube.cost_cents + excluded.cost_cents,
      line_count = monthly_cube.line_count + excluded.line_count`.execute(tx);
  await sql`delete from monthly_cube m using cube_changes c
    where m.organisation_id = ${organisationId} and m.line_count = 0
      and m.record_type = c.record_type and m.month = c.month and m.client_id = c.client_id
      and m.item_id = c.item_id and m.salesperson_id = c.salesperson_id`.execute(tx);
}

/**
 * Rebuilds an organisation's monthly cube from its lines (a restored snapshot, the RebuildCube job);
 * answers the cells written and the lines read.
 */
export async function rebuildMonthlyCube(
  session: BulkSession,
  organisationId: string,
): Promise<{ cells: CubeColumns; lines: number }> {
  await session.db.deleteFrom("monthly_cube").where("organisation_id", "=", organisationId).execute();
  const cube = new CubeCellsBuilder();
  const lines = await addLinesToCube(
    session.db,
    cube,
    "invoice_lines",
    sql`organisation_id = ${organisationId}`,
  );
  const cells = cube.finish();
  await applyCubeChanges(session, organisationId, cells, undefined, { intoEmpty: true });
  return { cells, lines };
}
