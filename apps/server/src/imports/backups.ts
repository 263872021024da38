import { randomUUID } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import { type Kysely, sql, type Transaction } from "kysely";
import type { Schema } from "../db/schema";

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

/** Takes a backup of the organisation's invoice data and stores it (gzip'd JSON). */
export async function takeBackup(
  tx: Tx,
  organisationId: string,
  reason: "BeforeImport" | "OnDemand" | "BeforeRestore",
) {
  const content: BackupContent = {
    format: backupFormat,
    createdAt: new Date().toISOString(),
    clients: await rows(tx, "clients", organisationId),
    items: await rows(tx, "items", organisationId),
    salespeople: await rows(tx, "salespeople", organisationId),
    invoiceLines: await rows(tx, "invoice_lines", organisationId),
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
export async function restoreBackupContent(tx: Tx, organisationId: string, content: BackupContent) {
  await tx.deleteFrom("monthly_cube").where("organisation_id", "=", organisationId).execute();
  await tx.deleteFrom("invoice_lines").where("organisation_id", "=", organisationId).execute();
  await tx.deleteFrom("salespeople").where("organisation_id", "=", organisationId).execute();
  await tx.deleteFrom("items").where("organisation_id", "=", organisationId).execute();
  await tx.deleteFrom("clients").where("organisation_id", "=", organisationId).execute();
  await insertAll(tx, "clients", organisationId, content.clients);
  await insertAll(tx, "items", organisationId, content.items);
  await insertAll(tx, "salespeople", organisationId, content.salespeople);
  await insertAll(tx, "invoice_lines", organisationId, content.invoiceLines);
  // Restored rows keep their ids: move each sequence past them.
  for (const table of ["clients", "items", "salespeople"]) {
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'),
      greatest((select coalesce(max(id), 0) from ${sql.table(table)}), 1))`.execute(tx);
  }
}
