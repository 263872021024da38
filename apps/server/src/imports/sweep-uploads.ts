import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Kysely } from "kysely";
import type { Schema } from "../db/schema";

/** A file in `uploads/` untouched this long, and named by no unended job, is a leftover. */
export const uploadIdleMs = 15 * 60_000;

/**
 * Removes the leftovers of uploads and imports cut short (a crash mid-upload, or between an upload
 * and its job): every file in `uploads/` that no Pending or Running import job names and that was
 * last written at least `idleMs` ago. An upload in progress is written continuously, so it is never
 * one of them; `idleMs` 0 is for a server that owns the folder alone and has not started taking
 * uploads yet. Returns the paths removed.
 */
export async function sweepUploads(
  db: Kysely<Schema>,
  uploadsDir: string,
  options: { idleMs: number; now?: number },
): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(uploadsDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  if (names.length === 0) return [];
  const open = await db
    .selectFrom("import_jobs")
    .select("file_path")
    .where("status", "in", ["Pending", "Running"])
    .execute();
  const named = new Set(open.map((job) => job.file_path));
  const now = options.now ?? Date.now();
  const removed: string[] = [];
  for (const name of names) {
    const path = join(uploadsDir, name);
    if (named.has(path)) continue;
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile() || now - info.mtimeMs < options.idleMs) continue;
    await rm(path, { force: true });
    removed.push(path);
  }
  return removed;
}
