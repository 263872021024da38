import { randomUUID } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import type { RecordType } from "@varia/variance";
import { type Kysely, sql, type Transaction } from "kysely";
import { dateOfDay, dayNumber } from "../db/binary-copy";
import type { BulkSession } from "../db/database";
import type { Schema } from "../db/schema";
import { blockLine, type StoredLine } from "../lines/line-block";
import { readLineBlocks, writeLinesByJob } from "../lines/line-blocks-store";
import { formatScaled, parseScaled } from "./decimal";

type Tx = Transaction<Schema> | Kysely<Schema>;

export const backupFormat = "varia-backup/1";

/** A portable backup: the organisation's clients, items, salespeople and invoice lines. */
export interface BackupContent {
  format: typeof backupFormat;
  createdAt: string;
  clients: Record<string, unknown>[];
  items: Record<string, unknown>[];
  salespeople: Record<string, unknown>[];
  invoiceLines: Record<string, unknown>[];
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

/** Takes a backup of the organisation's invoice data and stores it (gzip'd JSON). */
export async function takeBackup(
  session: BulkSession,
  organisationId: string,
  reason: "BeforeImport" | "OnDemand" | "BeforeRestore",
) {
  const tx = session.db;
  const invoiceLines: Record<string, unknown>[] = [];
  for (const { jobId, block } of await readLineBlocks(session, organisationId))
    for (let row = 0; row < block.count; row++) invoiceLines.push(lineRecord(blockLine(block, row), jobId));
  const content: BackupContent = {
    format: backupFormat,
    createdAt: new Date().toISOString(),
    clients: await rows(tx, "clients", organisationId),
    items: await rows(tx, "items", organisationId),
    salespeople: await rows(tx, "salespeople", organisationId),
    invoiceLines,
  };
  const data = gzipSync(JSON.stringify(content));
  const id = randomUUID();
  await tx
    .insertInto("backups")
    .values({
      organisation_id: organisationId,
      id,
      reason,
      line_count: content.invoiceLines.length,
      size_bytes: data.length,
      data,
    })
    .execute();
  return { id, lineCount: content.invoiceLines.length, sizeBytes: data.length };
}

export function readBackup(data: Uint8Array): BackupContent {
  const content = JSON.parse(gunzipSync(data).toString("utf8")) as BackupContent;
  if (content.format !== backupFormat)
    throw new Error(`Not a Varia backup (format '${String(content.format)}')`);
  return content;
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

/** Replaces the organisation's invoice data with a backup's (inside the caller's transaction). */
export async function restoreBackupContent(
  session: BulkSession,
  organisationId: string,
  content: BackupContent,
) {
  const tx = session.db;
  await tx.deleteFrom("monthly_cube").where("organisation_id", "=", organisationId).execute();
  await tx.deleteFrom("invoice_line_blocks").where("organisation_id", "=", organisationId).execute();
  await tx.deleteFrom("salespeople").where("organisation_id", "=", organisationId).execute();
  await tx.deleteFrom("items").where("organisation_id", "=", organisationId).execute();
  await tx.deleteFrom("clients").where("organisation_id", "=", organisationId).execute();
  await insertAll(tx, "clients", organisationId, content.clients);
  await insertAll(tx, "items", organisationId, content.items);
  await insertAll(tx, "salespeople", organisationId, content.salespeople);
  await writeLinesByJob(
    session,
    organisationId,
    content.invoiceLines.map((record) => ({
      jobId: (record.import_job_id as string | null | undefined) ?? null,
      line: storedLine(record),
    })),
  );
  // Restored rows keep their ids: move each sequence past them.
  for (const table of ["clients", "items", "salespeople"]) {
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'),
      greatest((select coalesce(max(id), 0) from ${sql.table(table)}), 1))`.execute(tx);
  }
}
