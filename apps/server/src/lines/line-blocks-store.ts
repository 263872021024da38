import { type Kysely, sql, type Transaction } from "kysely";
import { BinaryCopyWriter, binaryCopyRows, uuidBytes } from "../db/binary-copy";
import type { BulkSession } from "../db/database";
import type { Schema } from "../db/schema";
import { decodeLineBlock, type LineBlock, LineBlockBuilder, type StoredLine } from "./line-block";

type Tx = Transaction<Schema> | Kysely<Schema>;

/** A block ready to store: its bytes and what the table keeps beside them. */
export interface BuiltBlock {
  bytes: Uint8Array;
  lineCount: number;
  /** The latest invoice day of its Actual lines (days since 2000-01-01), or null. */
  lastActualDay: number | null;
}

/** A stored block, decoded. */
export interface StoredBlock {
  id: number;
  /** The import that wrote it (null: a restore). */
  jobId: string | null;
  block: LineBlock;
}

/** Lines per block when lines are written in bulk (an import batch is one block). */
export const blockLines = 50_000;

/** Finishes a builder into a block ready to store. */
export function buildBlock(builder: LineBlockBuilder): BuiltBlock {
  return { lastActualDay: builder.lastActualDay(), lineCount: builder.count, bytes: builder.finish() };
}

/** Lines in blocks of `blockLines`. */
export function blocksOf(lines: Iterable<StoredLine>): BuiltBlock[] {
  const blocks: BuiltBlock[] = [];
  let builder = new LineBlockBuilder();
  for (const line of lines) {
    builder.add(line);
    if (builder.count >= blockLines) {
      blocks.push(buildBlock(builder));
      builder = new LineBlockBuilder();
    }
  }
  if (builder.count) blocks.push(buildBlock(builder));
  return blocks;
}

/** Stores lines of several imports, each import's in blocks of its own (a block names its job). */
export async function writeLinesByJob(
  session: Pick<BulkSession, "copyBinary">,
  organisationId: string,
  lines: Iterable<{ jobId: string | null; line: StoredLine }>,
) {
  const byJob = new Map<string | null, StoredLine[]>();
  for (const { jobId, line } of lines) {
    const list = byJob.get(jobId);
    if (list) list.push(line);
    else byJob.set(jobId, [line]);
  }
  for (const [jobId, list] of byJob) await writeLineBlocks(session, organisationId, jobId, blocksOf(list));
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The organisation's blocks (or those a backup holds) in the order they were written, decoded. They come through COPY TO
 * (PGlite reads bytea through a query about ten times slower), whose select takes no parameters:
 * the organisation id is checked to be a uuid before it is written into the statement.
 */
export async function readLineBlocks(
  source: { copyOut(select: string): Promise<Uint8Array> },
  organisationId: string,
  of: { backupId?: string } = {},
): Promise<StoredBlock[]> {
  if (!uuidPattern.test(organisationId)) throw new Error(`Not an organisation id: ${organisationId}`);
  if (of.backupId !== undefined && !uuidPattern.test(of.backupId))
    throw new Error(`Not a backup id: ${of.backupId}`);
  const data = await source.copyOut(
    of.backupId === undefined
      ? `select id, import_job_id, data from invoice_line_blocks where organisation_id = '${organisationId}' order by id`
      : `select id, import_job_id, data from backup_line_blocks
         where organisation_id = '${organisationId}' and backup_id = '${of.backupId}' order by id`,
  );
  const blocks: StoredBlock[] = [];
  for (const [id, job, bytes] of binaryCopyRows(data)) {
    const view = new DataView(id!.buffer, id!.byteOffset, 8);
    blocks.push({
      id: Number(view.getBigInt64(0)),
      jobId: job ? uuidText(job) : null,
      block: decodeLineBlock(bytes!),
    });
  }
  return blocks;
}

function uuidText(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const blockCopyColumns = [
  "organisation_id",
  "import_job_id",
  "line_count",
  "last_actual_day",
  "data",
] as const;

/** Stores blocks of an organisation (in one COPY), written by the job `jobId` (null: a restore). */
export async function writeLineBlocks(
  session: Pick<BulkSession, "copyBinary">,
  organisationId: string,
  jobId: string | null,
  blocks: readonly BuiltBlock[],
) {
  if (!blocks.length) return;
  // The blocks themselves are passed on as they are (see `bytes`): a small buffer does for the rest.
  const writer = new BinaryCopyWriter(1 << 12);
  const organisation = uuidBytes(organisationId);
  const job = jobId ? uuidBytes(jobId) : null;
  for (const block of blocks) {
    writer.row(blockCopyColumns.length);
    writer.uuid(organisation);
    if (job) writer.uuid(job);
    else writer.null();
    writer.int4(block.lineCount);
    if (block.lastActualDay === null) writer.null();
    else writer.int4(block.lastActualDay);
    writer.bytes(block.bytes);
  }
  await session.copyBinary("invoice_line_blocks", blockCopyColumns, writer.finish());
}

/** Deletes blocks of an organisation by id. */
export async function deleteLineBlocks(tx: Tx, organisationId: string, ids: readonly number[]) {
  if (!ids.length) return;
  await sql`delete from invoice_line_blocks
    where organisation_id = ${organisationId} and id = any(${ids.map(String)}::bigint[])`.execute(tx);
}
