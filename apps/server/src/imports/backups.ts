import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { createGzip, gunzipSync, gzipSync } from "node:zlib";
import type { RecordType } from "@varia/variance";
import { type Kysely, sql, type Transaction } from "kysely";
import { dateOfDay, dayNumber } from "../db/binary-copy";
import type { BulkSession, Database } from "../db/database";
import type { Schema } from "../db/schema";
import { blockLine, type StoredLine } from "../lines/line-block";
import { readLineBlocks, type StoredBlock, writeLinesByJob } from "../lines/line-blocks-store";
import { formatScaled, parseScaled } from "./decimal";

type Tx = Transaction<Schema> | Kysely<Schema>;

/** The portable file a backup downloads as (and what backups stored before blocks hold). */
export const backupFormat = "varia-backup/1";
/** What a backup stores now: its lines' blocks are in `backup_line_blocks`, copied, not decoded. */
export const storedBackupFormat = "varia-backup/2";

/** A portable backup: the organisation's clients, items, salespeople and invoice lines. */
export interface BackupContent {
  format: typeof backupFormat;
  createdAt: string;
  clients: Record<string, unknown>[];
  items: Record<string, unknown>[];
  salespeople: Record<string, unknown>[];
  invoiceLines: Record<string, unknown>[];
}

/** A stored backup of now: the dimensions here, the lines in `backup_line_blocks`. */
export interface StoredBackupContent extends Omit<BackupContent, "format" | "invoiceLines"> {
  format: typeof storedBackupFormat;
}

async function rows(tx: Tx, table: string, organisationId: string) {
  const result = await sql<Record<string, unknown>>`
    select * from ${sql.table(table)} where organisation_id = ${organisationId} order by 2`.execute(tx);
  return result.rows.map(({ organisation_id: _, ...rest }) =>
    Object.fromEntries(
      Object.entries(rest).map(([k, v]) => [k, v instanceof Date ? v.toISOString().slice(0, 10) : v]),
    ),
  );
}

/** An invoice line as a backup holds it: the columns of the table lines were once stored in. */
function lineRecord(line: StoredLine, jobId: string | null): Record<string, unknown> {
  return {
    invoice_number: line.invoiceNumber,
    line_number: line.lineNumber,
    invoice_date: dateOfDay(line.invoiceDay),
    client_id: String(line.clientId),
    item_id: String(line.itemId),
    salesperson_id: line.salespersonId ? String(line.salespersonId) : null,
    quantity: formatScaled(BigInt(line.quantity), 4),
    unit_price: line.unitPrice === null ? null : formatScaled(BigInt(line.unitPrice), 4),
    amount_cents: String(line.amountCents),
    cost_cents: String(line.costCents),
    service_from: line.serviceFromDay === null ? null : dateOfDay(line.serviceFromDay),
    service_to: line.serviceToDay === null ? null : dateOfDay(line.serviceToDay),
    record_type: line.recordType,
    import_job_id: jobId,
  };
}

/** A backup's invoice line read back (numbers and dates as either drivers gave them). */
function storedLine(record: Record<string, unknown>): StoredLine {
  const scaled = (value: unknown) => {
    const parsed = parseScaled(String(value), 4);
    if (parsed === undefined) throw new Error(`Not a quantity in the backup: ${String(value)}`);
    return Number(parsed);
  };
  const day = (value: unknown) => dayNumber(String(value).slice(0, 10));
  return {
    invoiceNumber: String(record.invoice_number),
    lineNumber: Number(record.line_number),
    invoiceDay: day(record.invoice_date),
    clientId: Number(record.client_id),
    itemId: Number(record.item_id),
    salespersonId: record.salesperson_id == null ? 0 : Number(record.salesperson_id),
    quantity: scaled(record.quantity),
    unitPrice: record.unit_price == null ? null : scaled(record.unit_price),
    amountCents: Number(record.amount_cents),
    costCents: Number(record.cost_cents ?? 0),
    serviceFromDay: record.service_from == null ? null : day(record.service_from),
    serviceToDay: record.service_to == null ? null : day(record.service_to),
    recordType: String(record.record_type ?? "Actual") as RecordType,
  };
}

/**
 * Takes a backup of the organisation's invoice data: its clients, items and salespeople as gzip'd
 * JSON, and its blocks of lines copied within the database as they are (nothing is decoded, so a
 * backup of a million lines costs a copy of some 50 MB).
 */
export async function takeBackup(
  session: BulkSession,
  organisationId: string,
  reason: "BeforeImport" | "OnDemand" | "BeforeRestore",
) {
  const tx = session.db;
  const content: StoredBackupContent = {
    format: storedBackupFormat,
    createdAt: new Date().toISOString(),
    clients: await rows(tx, "clients", organisationId),
    items: await rows(tx, "items", organisationId),
    salespeople: await rows(tx, "salespeople", organisationId),
  };
  const data = gzipSync(JSON.stringify(content));
  const id = randomUUID();
  const lines = await sql<{ lines: number; bytes: number }>`
    select coalesce(sum(line_count), 0)::float8 as lines, coalesce(sum(octet_length(data)), 0)::float8 as bytes
    from invoice_line_blocks where organisation_id = ${organisationId}`.execute(tx);
  const { lines: lineCount, bytes } = lines.rows[0]!;
  const sizeBytes = data.length + bytes;
  await tx
    .insertInto("backups")
    .values({
      organisation_id: organisationId,
      id,
      reason,
      line_count: lineCount,
      size_bytes: sizeBytes,
      data,
    })
    .execute();
  await sql`insert into backup_line_blocks
      (organisation_id, backup_id, id, import_job_id, line_count, last_actual_day, data)
    select organisation_id, ${id}, id, import_job_id, line_count, last_actual_day, data
    from invoice_line_blocks where organisation_id = ${organisationId}`.execute(tx);
  return { id, lineCount, sizeBytes };
}

/** A stored backup's content, of either format. */
export function readBackup(data: Uint8Array): BackupContent | StoredBackupContent {
  const content = JSON.parse(gunzipSync(data).toString("utf8")) as { format?: unknown };
  if (content.format !== backupFormat && content.format !== storedBackupFormat)
    throw new Error(`Not a Varia backup (format '${String(content.format)}')`);
  return content as BackupContent | StoredBackupContent;
}

/**
 * The portable file of a backup (format 1: gzip'd JSON with every invoice line), as a stream: a
 * backup of format 2 has its blocks decoded one at a time; null when there is no such backup.
 */
export async function portableBackup(
  database: Pick<Database, "copyOut" | "db">,
  organisationId: string,
  backupId: string,
): Promise<{ createdAt: Date; file: Readable } | null> {
  const backup = await database.db
    .selectFrom("backups")
    .select(["data", "created_at"])
    .where("organisation_id", "=", organisationId)
    .where("id", "=", backupId)
    .executeTakeFirst();
  if (!backup) return null;
  const createdAt = new Date(backup.created_at as unknown as string);
  const content = readBackup(backup.data);
  if (content.format === backupFormat) return { createdAt, file: Readable.from([Buffer.from(backup.data)]) };
  async function* json() {
    const { format: _, ...dimensions } = content;
    const head = JSON.stringify({ format: backupFormat, ...dimensions, invoiceLines: [] });
    yield head.slice(0, -2);
    let separator = "";
    for (const { jobId, block } of await readBackupBlocks(database, organisationId, backupId)) {
      const records: string[] = [];
      for (let row = 0; row < block.count; row++)
        records.push(JSON.stringify(lineRecord(blockLine(block, row), jobId)));
      yield separator + records.join(",");
      separator = ",";
    }
    yield "]}";
  }
  return { createdAt, file: Readable.from(json()).pipe(createGzip()) };
}

/** The blocks a backup of format 2 holds. */
function readBackupBlocks(
  database: Pick<Database, "copyOut">,
  organisationId: string,
  backupId: string,
): Promise<StoredBlock[]> {
  return readLineBlocks(database, organisationId, { backupId });
}

async function insertAll(tx: Tx, table: string, organisationId: string, records: Record<string, unknown>[]) {
  for (let i = 0; i < records.length; i += 500) {
    const batch = records.slice(i, i + 500).map((r) => ({ ...r, organisation_id: organisationId }));
    if (batch.length)
      await tx
        .insertInto(table as "clients")
        .values(batch as never)
        .execute();
  }
}

/**
 * Replaces the organisation's invoice data with a backup's (inside the caller's transaction);
 * answers how many lines it holds.
 */
export async function restoreBackup(
  session: BulkSession,
  organisationId: string,
  backupId: string,
  content: BackupContent | StoredBackupContent,
): Promise<number> {
  const tx = session.db;
  await tx.deleteFrom("monthly_cube").where("organisation_id", "=", organisationId).execute();
  await tx.deleteFrom("invoice_line_blocks").where("organisation_id", "=", organisationId).execute();
  await tx.deleteFrom("salespeople").where("organisation_id", "=", organisationId).execute();
  await tx.deleteFrom("items").where("organisation_id", "=", organisationId).execute();
  await tx.deleteFrom("clients").where("organisation_id", "=", organisationId).execute();
  await insertAll(tx, "clients", organisationId, content.clients);
  await insertAll(tx, "items", organisationId, content.items);
  await insertAll(tx, "salespeople", organisationId, content.salespeople);
  let lines: number;
  if (content.format === backupFormat) {
    await writeLinesByJob(
      session,
      organisationId,
      content.invoiceLines.map((record) => ({
        jobId: (record.import_job_id as string | null | undefined) ?? null,
        line: storedLine(record),
      })),
    );
    lines = content.invoiceLines.length;
  } else {
    const copied = await sql<{ lines: number }>`
      with restored as (
        insert into invoice_line_blocks (organisation_id, import_job_id, line_count, last_actual_day, data)
        select organisation_id, import_job_id, line_count, last_actual_day, data from backup_line_blocks
        where organisation_id = ${organisationId} and backup_id = ${backupId} order by id
        returning line_count)
      select coalesce(sum(line_count), 0)::float8 as lines from restored`.execute(tx);
    lines = copied.rows[0]!.lines;
  }
  // Restored rows keep their ids: move each sequence past them.
  for (const table of ["clients", "items", "salespeople"]) {
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'),
      greatest((select coalesce(max(id), 0) from ${sql.table(table)}), 1))`.execute(tx);
  }
  return lines;
}
