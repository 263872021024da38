import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { createGzip, gunzipSync, gzipSync } from "node:zlib";
import { type Kysely, sql, type Transaction } from "kysely";
import { CubeCellsBuilder } from "../cube/cube-cells";
import { addLinesToCube, applyCubeChanges, rebuildMonthlyCube } from "../cube/monthly-cube";
import type { BulkSession, Database } from "../db/database";
import type { Schema } from "../db/schema";
import { ensureLinePartition, lineColumns } from "./store-invoice-lines";

/**
 * Backups (docs/storage.md). One taken before an import is an undo record: the lines the import
 * replaced, nothing else (the import's own lines are those with its `import_job_id`). One taken by
 * hand (OnDemand) or before a restore (BeforeRestore) is a snapshot of every line. Each keeps the
 * organisation's clients, items and salespeople as they were (`data`, gzip'd JSON: they are few).
 * A restore of an undo record undoes the imports from the newest back to its own; a restore of a
 * snapshot puts its lines back as they were.
 */

type Tx = Transaction<Schema> | Kysely<Schema>;
type Reason = "BeforeImport" | "OnDemand" | "BeforeRestore";

/** The portable file a backup downloads as. */
export const backupFormat = "varia-backup/3";

/** What `backups.data` holds: the dimensions as they were. */
export interface BackupDimensions {
  clients: Record<string, unknown>[];
  items: Record<string, unknown>[];
  salespeople: Record<string, unknown>[];
}

/** The portable file: the dimensions and the backup's lines (all of them, or those an import replaced). */
export interface PortableBackup extends BackupDimensions {
  format: typeof backupFormat;
  kind: "Snapshot" | "UndoRecord";
  createdAt: string;
  /** The import an undo record undoes. */
  undoesImport: string | null;
  invoiceLines: Record<string, unknown>[];
}

async function rows(tx: Tx, table: string, organisationId: string) {
  const result = await sql<Record<string, unknown>>`
    select * from ${sql.table(table)} where organisation_id = ${organisationId} order by id`.execute(tx);
  return result.rows.map(({ organisation_id: _, ...rest }) => rest);
}

async function insertBackup(
  tx: Tx,
  organisationId: string,
  reason: Reason,
  importJobId: string | null,
  lines: number,
) {
  const dimensions: BackupDimensions = {
    clients: await rows(tx, "clients", organisationId),
    items: await rows(tx, "items", organisationId),
    salespeople: await rows(tx, "salespeople", organisationId),
  };
  const data = gzipSync(JSON.stringify(dimensions));
  const id = randomUUID();
  await tx
    .insertInto("backups")
    .values({
      organisation_id: organisationId,
      id,
      reason,
      import_job_id: importJobId,
      line_count: lines,
      size_bytes: data.length,
      data,
    })
    .execute();
  return id;
}

/** Sets a backup's line count and size (its dimensions and the stored size of its lines). */
async function measureBackup(tx: Tx, organisationId: string, backupId: string) {
  const measured = await sql<{ lines: number; bytes: number }>`
    update backups set line_count = m.lines, size_bytes = least(octet_length(backups.data) + m.bytes, 2147483647)
    from (select count(*)::int4 as lines, coalesce(sum(pg_column_size(l.*)), 0)::int8 as bytes
      from backup_lines l where organisation_id = ${organisationId} and backup_id = ${backupId}) m
    where organisation_id = ${organisationId} and id = ${backupId}
    returning m.lines, m.bytes + octet_length(backups.data) as bytes`.execute(tx);
  const row = measured.rows[0]!;
  return { lineCount: row.lines, sizeBytes: Number(row.bytes) };
}

/** Takes a snapshot of the organisation's invoice data (by hand, or before a restore). */
export async function takeSnapshot(tx: Tx, organisationId: string, reason: "OnDemand" | "BeforeRestore") {
  const id = await insertBackup(tx, organisationId, reason, null, 0);
  await sql`insert into backup_lines (organisation_id, backup_id, ${lineColumns})
    select organisation_id, ${id}, ${lineColumns} from invoice_lines
    where organisation_id = ${organisationId}`.execute(tx);
  return { id, ...(await measureBackup(tx, organisationId, id)) };
}

/** Takes a snapshot in a bulk session (the route's Backup/Create). */
export function takeBackup(session: Pick<BulkSession, "db">, organisationId: string, reason: "OnDemand") {
  return takeSnapshot(session.db, organisationId, reason);
}

/**
 * Takes the undo record of import `jobId` whose file is staged (`import_lines`): the stored lines
 * it will replace. Runs before the merge, in the import's transaction. `hasLines` false: the
 * organisation has no lines (a first import), so the record holds its dimensions and no line.
 */
export async function takeUndoRecord(tx: Tx, organisationId: string, jobId: string, hasLines = true) {
  const id = await insertBackup(tx, organisationId, "BeforeImport", jobId, 0);
  if (!hasLines) return { id, ...(await measureBackup(tx, organisationId, id)) };
  await sql`insert into backup_lines (organisation_id, backup_id, ${lineColumns})
    select l.organisation_id, ${id}, ${sql.raw(
      "l.invoice_number, l.line_number, l.invoice_date, l.client_id, l.item_id, l.salesperson_id, l.quantity, l.unit_price, l.amount_cents, l.cost_cents, l.service_from, l.service_to, l.record_type, l.import_job_id",
    )}
    from invoice_lines l join import_lines s
      on l.invoice_number = s.invoice_number and l.line_number = s.line_number
    where l.organisation_id = ${organisationId}`.execute(tx);
  return { id, ...(await measureBackup(tx, organisationId, id)) };
}

/**
 * Keeps the newest `keep` undo records of the organisation (`backupsToKeep`); snapshots are kept.
 * A restore can reach back to the oldest kept: every newer one is kept too.
 */
export async function pruneUndoRecords(tx: Tx, organisationId: string, keep: number) {
  await sql`delete from backups where organisation_id = ${organisationId} and reason = 'BeforeImport'
    and id not in (select id from backups where organisation_id = ${organisationId}
      and reason = 'BeforeImport' order by created_at desc limit ${keep})`.execute(tx);
}

interface BackupRow {
  id: string;
  reason: Reason;
  import_job_id: string | null;
  created_at: Date | string;
}

/**
 * Restores a backup in the caller's transaction (a restore job): a snapshot of the data as it is
 * is taken first (so that the restore can be undone too). An undo record undoes, newest first,
 * every import from the latest back to its own: where a restore happened in between, the snapshot
 * taken before it stands for everything after. Answers the number of lines afterwards, or null
 * when there is no such backup.
 */
export async function restoreBackup(
  session: BulkSession,
  organisationId: string,
  backupId: string,
): Promise<number | null> {
  const tx = session.db;
  const chosen = (await tx
    .selectFrom("backups")
    .select(["id", "reason", "import_job_id", "created_at", "data"])
    .where("organisation_id", "=", organisationId)
    .where("id", "=", backupId)
    .executeTakeFirst()) as (BackupRow & { data: Uint8Array }) | undefined;
  if (!chosen) return null;
  // The lines put back go into the organisation's partition (docs/storage.md, "A partition per organisation").
  await ensureLinePartition(tx, organisationId);
  const before = await takeSnapshot(tx, organisationId, "BeforeRestore");
  if (chosen.reason === "BeforeImport") {
    const newer = (
      await sql<BackupRow>`select id, reason, import_job_id, created_at from backups
      where organisation_id = ${organisationId} and id <> ${before.id}
        and reason in ('BeforeImport', 'BeforeRestore')
        and (created_at, id) >= (${chosen.created_at}, ${chosen.id})
      order by created_at desc, id desc`.execute(tx)
    ).rows;
    // After the oldest snapshot newer than the chosen record, nothing newer matters.
    const snapshotAt = newer.findLastIndex((b) => b.reason === "BeforeRestore");
    await refuseGaps(tx, organisationId, chosen, snapshotAt >= 0 ? newer[snapshotAt]! : null, newer);
    if (snapshotAt >= 0) await restoreSnapshot(session, organisationId, newer[snapshotAt]!);
    const cube = new CubeCellsBuilder();
    for (const record of newer.slice(snapshotAt + 1)) await undoImport(tx, organisationId, record, cube);
    await applyCubeChanges(session, organisationId, cube.finish());
  } else await restoreSnapshot(session, organisationId, chosen);
  await restoreDimensions(tx, organisationId, readBackupDimensions(chosen.data));
  // Lines and their clients, items and salespeople were put back step by step: their keys are
  // checked once, now that every step is done.
  await checkLineKeys(tx, organisationId);
  const count = await sql<{ lines: number }>`select count(*)::int4 as lines from invoice_lines
    where organisation_id = ${organisationId}`.execute(tx);
  return count.rows[0]!.lines;
}

/**
 * Checks that every line of the organisation names a client, item and salesperson it has (what
 * foreign keys would check line by line; docs/storage.md, "Keys checked once per import"): one
 * set-based anti-join a dimension, at the end of a restore.
 */
async function checkLineKeys(tx: Tx, organisationId: string) {
  for (const [table, column] of [
    ["clients", "client_id"],
    ["items", "item_id"],
    ["salespeople", "salesperson_id"],
  ] as const) {
    const dangling = await sql<{ invoice_number: string; line_number: number; id: string }>`
      select l.invoice_number, l.line_number, ${sql.ref(`l.${column}`)}::text as id from invoice_lines l
      where l.organisation_id = ${organisationId} and ${sql.ref(`l.${column}`)} is not null
        and not exists (select from ${sql.table(table)} d
          where d.organisation_id = l.organisation_id and d.id = ${sql.ref(`l.${column}`)})
      limit 1`.execute(tx);
    const line = dangling.rows[0];
    if (line)
      throw new Error(
        `The restore would leave invoice ${line.invoice_number}, line ${line.line_number} with ${column} ${line.id}, which is not stored`,
      );
  }
}

/** A restore that cannot be done (an undo record it needs was deleted); the job fails with it. */
export class RestoreRefused extends Error {}

/**
 * Refuses to undo imports back to `chosen` when one of the imports completed between it and
 * `until` (the snapshot the walk starts from, or now) has no undo record: it was deleted by hand.
 */
async function refuseGaps(
  tx: Tx,
  organisationId: string,
  chosen: BackupRow,
  until: BackupRow | null,
  records: BackupRow[],
) {
  const undoable = new Set(records.map((r) => r.import_job_id));
  const imports = await sql<{ id: string }>`select j.id from import_jobs j
    where j.organisation_id = ${organisationId} and j.kind in ('Import', 'Connector') and j.status = 'Completed'
      and j.finished_at >= ${chosen.created_at}
      ${until ? sql`and j.finished_at < ${until.created_at}` : sql``}`.execute(tx);
  const missing = imports.rows.filter((j) => !undoable.has(j.id));
  if (missing.length)
    throw new RestoreRefused(
      `This backup cannot be restored: the backup taken before a later import (job ${missing[0]!.id}) was deleted`,
    );
}

/**
 * Undoes one import (every newer one undone already): its lines go, the lines it replaced come
 * back, and its file may be imported again (its de-duplication key is freed).
 */
async function undoImport(tx: Tx, organisationId: string, record: BackupRow, cube: CubeCellsBuilder) {
  const jobId = record.import_job_id!;
  const own = sql`organisation_id = ${organisationId} and import_job_id = ${jobId}`;
  const replaced = sql`organisation_id = ${organisationId} and backup_id = ${record.id}`;
  await addLinesToCube(tx, cube, "invoice_lines", own, -1);
  await addLinesToCube(tx, cube, "backup_lines", replaced);
  await sql`delete from invoice_lines where ${own}`.execute(tx);
  await sql`insert into invoice_lines (organisation_id, ${lineColumns})
    select organisation_id, ${lineColumns} from backup_lines where ${replaced}`.execute(tx);
  await freeImportKeys(tx, organisationId, sql`id = ${jobId}`);
}

/**
 * Frees the de-duplication keys of the imports a restore takes away, so that their files can be
 * imported again (docs/import.md, "De-duplication of uploads"): an upload answered "already
 * uploaded" must mean that its lines are stored.
 */
async function freeImportKeys(tx: Tx, organisationId: string, which: ReturnType<typeof sql>) {
  await sql`update import_jobs set idempotency_key = 'undone:' || id || ':' || idempotency_key
    where organisation_id = ${organisationId} and kind in ('Import', 'Connector') and ${which}
      and idempotency_key not like 'undone:%'`.execute(tx);
}

/**
 * Puts a snapshot's lines back in place of the organisation's, and rebuilds the cube from them. The
 * imports completed since it was taken are taken away with their lines: their keys are freed.
 */
async function restoreSnapshot(session: BulkSession, organisationId: string, snapshot: BackupRow) {
  const tx = session.db;
  const backupId = snapshot.id;
  await freeImportKeys(
    tx,
    organisationId,
    sql`status = 'Completed' and finished_at >= ${snapshot.created_at}`,
  );
  await tx.deleteFrom("invoice_lines").where("organisation_id", "=", organisationId).execute();
  await sql`insert into invoice_lines (organisation_id, ${lineColumns})
    select organisation_id, ${lineColumns} from backup_lines
    where organisation_id = ${organisationId} and backup_id = ${backupId}`.execute(tx);
  await rebuildMonthlyCube(session, organisationId);
}

/**
 * Makes the organisation's clients, items and salespeople those of a backup: each keeps its id,
 * those the backup does not have are deleted (no line names them any more), and each sequence is
 * moved past the ids restored.
 */
async function restoreDimensions(tx: Tx, organisationId: string, dimensions: BackupDimensions) {
  const tables = [
    ["clients", dimensions.clients, ["code", "name"]],
    ["items", dimensions.items, ["code", "name", "stock_type", "category"]],
    ["salespeople", dimensions.salespeople, ["name"]],
  ] as const;
  for (const [table, records, columns] of tables) {
    const ids = records.map((r) => String(r.id));
    await sql`delete from ${sql.table(table)} where organisation_id = ${organisationId}
      and not (id = any(${ids}::bigint[]))`.execute(tx);
    for (let i = 0; i < records.length; i += 500) {
      const batch = records.slice(i, i + 500).map((r) => ({ ...r, organisation_id: organisationId }));
      const update = Object.fromEntries(columns.map((c) => [c, sql.ref(`excluded.${c}`)]));
      await tx
        .insertInto(table as "clients")
        .values(batch as never)
        .onConflict((oc) => oc.columns(["organisation_id", "id"]).doUpdateSet(update as never))
        .execute();
    }
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'),
      greatest((select coalesce(max(id), 0) from ${sql.table(table)}), 1))`.execute(tx);
  }
}

/** The dimensions a backup holds. */
export function readBackupDimensions(data: Uint8Array): BackupDimensions {
  return JSON.parse(gunzipSync(data).toString("utf8")) as BackupDimensions;
}

const linePage = 20_000;

type PortableLine = Record<string, unknown> & { invoice_number: string; line_number: number };

/**
 * A backup as a portable file (`PortableBackup`, gzip'd JSON), streamed a page of lines at a time;
 * null when there is no such backup.
 */
export async function portableBackup(
  database: Pick<Database, "db">,
  organisationId: string,
  backupId: string,
): Promise<{ createdAt: Date; file: Readable } | null> {
  const { db } = database;
  const backup = await db
    .selectFrom("backups")
    .select(["data", "created_at", "reason", "import_job_id"])
    .where("organisation_id", "=", organisationId)
    .where("id", "=", backupId)
    .executeTakeFirst();
  if (!backup) return null;
  const createdAt = new Date(backup.created_at as unknown as string);
  const head: Omit<PortableBackup, "invoiceLines"> = {
    format: backupFormat,
    kind: backup.reason === "BeforeImport" ? "UndoRecord" : "Snapshot",
    createdAt: createdAt.toISOString(),
    undoesImport: backup.import_job_id,
    ...readBackupDimensions(backup.data),
  };
  async function* json() {
    yield `${JSON.stringify(head).slice(0, -1)},"invoiceLines":[`;
    let separator = "";
    let after: { invoice: string; line: number } | null = null;
    for (;;) {
      const page: { rows: PortableLine[] } = await sql<PortableLine>`
        select ${sql.raw(`invoice_number, line_number, to_char(invoice_date, 'YYYY-MM-DD') as invoice_date,
          client_id::text as client_id, item_id::text as item_id, salesperson_id::text as salesperson_id,
          quantity::text as quantity, unit_price::text as unit_price, amount_cents::text as amount_cents,
          cost_cents::text as cost_cents, to_char(service_from, 'YYYY-MM-DD') as service_from,
          to_char(service_to, 'YYYY-MM-DD') as service_to, record_type, import_job_id`)}
        from backup_lines where organisation_id = ${organisationId} and backup_id = ${backupId}
          ${after ? sql`and (invoice_number, line_number) > (${after.invoice}, ${after.line})` : sql``}
        order by invoice_number, line_number limit ${linePage}`.execute(db);
      if (page.rows.length) {
        yield separator + page.rows.map((r) => JSON.stringify(r)).join(",");
        separator = ",";
      }
      if (page.rows.length < linePage) break;
      const last = page.rows[page.rows.length - 1]!;
      after = { invoice: last.invoice_number, line: last.line_number };
    }
    yield "]}";
  }
  return { createdAt, file: Readable.from(json()).pipe(createGzip()) };
}
