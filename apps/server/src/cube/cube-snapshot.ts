import { type Kysely, sql, type Transaction } from "kysely";
import type { Schema } from "../db/schema";
import { CubeCellsBuilder, type CubeColumns } from "./cube-cells";
import type { IdMap } from "./monthly-cube";

type Tx = Transaction<Schema> | Kysely<Schema>;

/**
 * The cube snapshot (docs/storage.md): an organisation's cube cells as one compact value in
 * `cube_snapshots`, column by column, so that a server that starts (or a process that did not run
 * the import) gets the cube with a read or two instead of the cube's rows. It is a cache: valid
 * while its `data_version`, with the changes recorded after it (`cube_snapshot_changes`), leads to
 * the organisation's `cellsVersion`; rebuilt from `monthly_cube` when it does not. An import
 * appends the cells it changed, in its own transaction; a read folds many changes into a new
 * snapshot.
 *
 * Format: "VCS1", the cell count n, then the columns record type (n bytes, index in `recordTypes`),
 * month, client, item, salesperson, lines (Int32, n each), quantity, revenue, cost (Float64), each
 * starting at a multiple of 8 bytes.
 */

const magic = 0x31534356; // "VCS1"

/**
 * What the cells are computed from: the completed imports, restores and cube rebuilds (the only
 * writers of lines and the cube), by count and latest finish. Read in an import's transaction, it
 * counts that import.
 */
export async function cellsVersion(tx: Tx, organisationId: string): Promise<string> {
  const result = await sql<{ version: string }>`
    select concat_ws(':', count(id), max(finished_at)::text) as version from import_jobs
    where organisation_id = ${organisationId} and status = 'Completed'`.execute(tx);
  return result.rows[0]?.version ?? "";
}

const pad8 = (bytes: number) => Math.ceil(bytes / 8) * 8;

export function encodeCubeSnapshot(cells: CubeColumns): Uint8Array {
  const n = cells.month.length;
  const size = 8 + pad8(n) + 5 * pad8(4 * n) + 3 * 8 * n;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, magic, true);
  view.setUint32(4, n, true);
  let at = 8;
  const put = (array: ArrayBufferView & { byteLength: number }) => {
    out.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at);
    at += pad8(array.byteLength);
  };
  put(cells.recordType.subarray(0, n));
  for (const column of [cells.month, cells.clientId, cells.itemId, cells.salespersonId, cells.lines])
    put(column.subarray(0, n));
  for (const column of [cells.quantity, cells.revenue, cells.cost]) put(column.subarray(0, n));
  return out;
}

/** The cells of a snapshot (copies: the columns do not keep the value's bytes alive). */
export function decodeCubeSnapshot(data: Uint8Array): CubeColumns {
  const bytes = new Uint8Array(data);
  const view = new DataView(bytes.buffer);
  if (view.getUint32(0, true) !== magic) throw new Error("Not a cube snapshot");
  const n = view.getUint32(4, true);
  let at = 8;
  const take = <T>(make: (buffer: ArrayBuffer, offset: number, length: number) => T, width: number): T => {
    const array = make(bytes.buffer, at, n);
    at += pad8(width * n);
    return array;
  };
  const int32 = () => take((b, o, l) => new Int32Array(b, o, l), 4);
  const float64 = () => take((b, o, l) => new Float64Array(b, o, l), 8);
  const recordType = take((b, o, l) => new Uint8Array(b, o, l), 1);
  const [month, clientId, itemId, salespersonId, lines] = [int32(), int32(), int32(), int32(), int32()];
  const [quantity, revenue, cost] = [float64(), float64(), float64()];
  return { recordType, month, clientId, itemId, salespersonId, lines, quantity, revenue, cost };
}

/** Changes after the snapshot from which a read folds them into a new snapshot. */
const foldAfter = 16;

/**
 * The organisation's cells of `version`: the snapshot with the changes after it applied, when they
 * lead to `version`; else null. `folded`: whether the changes are many enough to fold into a new
 * snapshot (`writeCubeSnapshot`).
 */
export async function readCubeSnapshot(
  tx: Tx,
  organisationId: string,
  version: string,
): Promise<{ cells: CubeColumns; folded: boolean } | null> {
  const base = await tx
    .selectFrom("cube_snapshots")
    .select(["data", "data_version"])
    .where("organisation_id", "=", organisationId)
    .executeTakeFirst();
  if (!base) return null;
  const changes = await tx
    .selectFrom("cube_snapshot_changes")
    .select(["from_version", "to_version", "data"])
    .where("organisation_id", "=", organisationId)
    .orderBy("seq")
    .execute();
  let at = base.data_version;
  const chain: CubeColumns[] = [];
  for (const change of changes) {
    if (change.from_version !== at) break;
    chain.push(decodeCubeSnapshot(change.data));
    at = change.to_version;
    if (at === version) break;
  }
  if (at !== version) return null;
  const cells = decodeCubeSnapshot(base.data);
  if (!chain.length) return { cells, folded: false };
  const cube = new CubeCellsBuilder();
  cube.addCells(cells);
  for (const change of chain) cube.addCells(change);
  return { cells: withoutEmptyCells(cube.finish()), folded: chain.length >= foldAfter };
}

/** Stores the organisation's snapshot of `version` (no changes after it). */
export async function writeCubeSnapshot(tx: Tx, organisationId: string, version: string, cells: CubeColumns) {
  const data = encodeCubeSnapshot(cells);
  await tx.deleteFrom("cube_snapshot_changes").where("organisation_id", "=", organisationId).execute();
  await tx
    .insertInto("cube_snapshots")
    .values({ organisation_id: organisationId, data_version: version, data })
    .onConflict((oc) => oc.column("organisation_id").doUpdateSet({ data_version: version, data }))
    .execute();
}

/** Whether the organisation's cube has no cells (no lines). */
export async function cubeIsEmpty(tx: Tx, organisationId: string): Promise<boolean> {
  const cell = await tx
    .selectFrom("monthly_cube")
    .select("month")
    .where("organisation_id", "=", organisationId)
    .limit(1)
    .executeTakeFirst();
  return cell === undefined;
}

/** Drops the organisation's snapshot (a restore: the next read rebuilds it from the cube's rows). */
export async function dropCubeSnapshot(tx: Tx, organisationId: string) {
  await tx.deleteFrom("cube_snapshot_changes").where("organisation_id", "=", organisationId).execute();
  await tx.deleteFrom("cube_snapshots").where("organisation_id", "=", organisationId).execute();
}

/**
 * Records the cells an import changed (each list mapped by its ids, none: the organisation's), from
 * `from` to `to`: appended after the snapshot, in proportion to the import. `wasEmpty`: the
 * organisation had no cells before, so the changes are the whole cube, written as the snapshot.
 */
export async function changeCubeSnapshot(
  tx: Tx,
  organisationId: string,
  from: { version: string; wasEmpty: boolean },
  to: string,
  changes: { cells: CubeColumns; ids?: IdMap }[],
) {
  const cube = new CubeCellsBuilder();
  for (const { cells, ids } of changes) cube.addCells(ids ? mapIds(cells, ids) : cells);
  const cells = cube.finish();
  if (from.wasEmpty) return writeCubeSnapshot(tx, organisationId, to, withoutEmptyCells(cells));
  await tx
    .insertInto("cube_snapshot_changes")
    .values({
      organisation_id: organisationId,
      from_version: from.version,
      to_version: to,
      data: encodeCubeSnapshot(cells),
    })
    .execute();
}

function mapIds(cells: CubeColumns, ids: IdMap): CubeColumns {
  const map = (column: Int32Array, to: readonly number[]) => column.map((id) => to[id]!);
  return {
    ...cells,
    clientId: map(cells.clientId, ids.clientId),
    itemId: map(cells.itemId, ids.itemId),
    salespersonId: map(cells.salespersonId, ids.salespersonId),
  };
}

/** The cells that some line is still in (as `monthly_cube` deletes the others). */
export function withoutEmptyCells(cells: CubeColumns): CubeColumns {
  const keep: number[] = [];
  for (let i = 0; i < cells.month.length; i++) if (cells.lines[i] !== 0) keep.push(i);
  if (keep.length === cells.month.length) return cells;
  const pick = <T extends Int32Array | Float64Array | Uint8Array>(column: T): T => {
    const out = new (column.constructor as new (n: number) => T)(keep.length);
    keep.forEach((from, to) => {
      out[to] = column[from]!;
    });
    return out;
  };
  return {
    recordType: pick(cells.recordType),
    month: pick(cells.month),
    clientId: pick(cells.clientId),
    itemId: pick(cells.itemId),
    salespersonId: pick(cells.salespersonId),
    lines: pick(cells.lines),
    quantity: pick(cells.quantity),
    revenue: pick(cells.revenue),
    cost: pick(cells.cost),
  };
}
