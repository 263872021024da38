import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { createOrganisation } from "../src/admin/organisations";
import type { Database } from "../src/db/database";
import { runImportJob } from "../src/imports/import-jobs";
import { type DatabaseKind, openTestDatabase } from "./harness";

/**
 * A suite's test database of `kind` (opened before its tests, dropped after them), a folder for its
 * files, and the helpers below on them: `suite.database` is the database once the suite runs.
 */
export function importSuite(kind: DatabaseKind, folderPrefix: string) {
  let database: Database | undefined;
  let drop = async () => {};
  const dir = mkdtempSync(join(tmpdir(), folderPrefix));
  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase(kind));
  });
  afterAll(async () => {
    await drop();
    rmSync(dir, { recursive: true, force: true });
  });
  const opened = () => {
    if (!database) throw new Error("the suite's database is opened before its tests");
    return database;
  };
  return {
    get database() {
      return opened();
    },
    dir,
    ...importHelpers(opened, dir),
  };
}

/**
 * Organisations of a test database and files imported into them as the import queue runs a job
 * (`runImportJob` on the job's row, as an upload queues it: its completion moves the organisation's
 * data version). Files are written to `dir`; `database` is read when a helper runs.
 */
export function importHelpers(database: () => Database, dir: string) {
  return {
    async organisation(tenant: string) {
      const { organisationId } = await createOrganisation(database().db, {
        tenant,
        name: tenant,
        adminEmail: `a@${tenant}.example.com`,
        adminPassword: "a long enough password",
      });
      return organisationId;
    },

    /** Imports `content` as a file and expects it Completed; gives the job's id. */
    async importFile(organisationId: string, content: string) {
      const path = join(dir, `${randomUUID()}.csv`);
      writeFileSync(path, content);
      const id = randomUUID();
      await database()
        .db.insertInto("import_jobs")
        .values({
          organisation_id: organisationId,
          id,
          status: "Running",
          file_name: "lines.csv",
          file_path: path,
          file_sha256: id,
          idempotency_key: id,
        })
        .execute();
      const outcome = await runImportJob(database(), {
        organisation_id: organisationId,
        id,
        file_path: path,
      });
      expect(outcome.status).toBe("Completed");
      return id;
    },
  };
}
