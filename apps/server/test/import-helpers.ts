import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { createOrganisation } from "../src/admin/organisations";
import type { Database } from "../src/db/database";
import { runImportJob } from "../src/imports/import-jobs";

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
