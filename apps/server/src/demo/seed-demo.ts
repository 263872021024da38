import { createHash, randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { enqueueImport } from "../imports/import-jobs";
import type { ImportQueue } from "../imports/import-queue";
import { generateDemoCsv } from "./generate-demo-data";

/** The generated demo business, made once per process: it is the same text every time. */
let demoCsv: string | undefined;

/**
 * Loads the generated demo business into an organisation through the import path (a queued job,
 * as an upload would be). The same data twice is a no-op: the job is keyed by the file's hash.
 */
export async function seedDemo(jobs: ImportQueue, dataDir: string, tenant: string) {
  const organisation = await jobs.database.db
    .selectFrom("organisations")
    .select("id")
    .where("tenant", "=", tenant.toLowerCase())
    .executeTakeFirst();
  if (!organisation) throw new Error(`No organisation with tenant '${tenant}'`);
  demoCsv ??= generateDemoCsv();
  const csv = demoCsv;
  const uploads = join(dataDir, "uploads");
  await mkdir(uploads, { recursive: true });
  const filePath = join(uploads, `${randomUUID()}.csv`);
  await writeFile(filePath, csv);
  return enqueueImport(jobs, {
    organisationId: organisation.id,
    userId: null,
    fileName: "varia-demo-data.csv",
    filePath,
    sha256: createHash("sha256").update(csv).digest("hex"),
    idempotencyKey: undefined,
  });
}
