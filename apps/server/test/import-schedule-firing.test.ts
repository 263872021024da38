import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ImportSchedule } from "@varia/contracts";
import { TestClock } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createOrganisation } from "../src/admin/organisations";
import { queueScheduledImport } from "../src/connectors/connections";
import type { Database } from "../src/db/database";
import "../src/db/integration-schema";
import { type ImportQueue, openImportQueue } from "../src/imports/import-queue";
import { saveImportSchedule } from "../src/imports/import-schedules";
import { openTestDatabase, testDatabaseKinds } from "./harness";

/*
 * A schedule's firing (docs/integration.md, "Schedules"): pg-boss's cron, on pg-boss's own test
 * clock (its timers, and the time its SQL reads), sends each occurrence that comes due to the
 * schedules' queue, whose worker queues the data source's import. Nothing sleeps: the clock is moved.
 */

for (const kind of testDatabaseKinds()) {
  describe(`a schedule's firing [${kind}]`, () => {
    let database: Database;
    let drop: () => Promise<void>;
    let queue: ImportQueue;
    const dataDir = mkdtempSync(join(tmpdir(), "varia-schedules-"));
    // 2026-03-02 16:58 UTC is 05:58 on 3 March in Auckland (NZDT, UTC+13).
    const clock = new TestClock(Date.parse("2026-03-02T16:58:00Z"));

    beforeAll(async () => {
      ({ database, drop } = await openTestDatabase(kind));
      queue = await openImportQueue(database, {
        work: true,
        clock,
        pollingIntervalSeconds: 1,
        scheduledImport: (data, q) => queueScheduledImport(q, join(dataDir, "uploads"), data),
      });
    });
    afterAll(async () => {
      await queue?.stop();
      await drop?.();
      rmSync(dataDir, { recursive: true, force: true });
    });

    /** An organisation with a QuickBooks connection and one data source for each name. */
    async function sources(names: string[]) {
      const { organisationId } = await createOrganisation(database.db, {
        tenant: `schedules-${kind}`,
        name: "Schedules Ltd",
        adminEmail: `admin@schedules-${kind}.example.com`,
        adminPassword: "a long enough password",
      });
      const connectionId = randomUUID();
      await database.db
        .insertInto("connections")
        .values({
          organisation_id: organisationId,
          id: connectionId,
          integration_type: "Quickbooks",
          issuer: "https://issuer.example.com",
          subject: "someone",
          access_token_encrypted: "v1.not-used",
        })
        .execute();
      const ids = names.map(() => randomUUID());
      await database.db
        .insertInto("data_sources")
        .values(
          names.map((name, i) => ({
            organisation_id: organisationId,
            id: ids[i]!,
            connection_id: connectionId,
            external_id: `realm-${i}`,
            name,
          })),
        )
        .execute();
      return { organisationId, ids };
    }

    /** The imports queued from each data source: the job's source, kind and user. */
    const importsOf = async (organisationId: string) =>
      database.db
        .selectFrom("import_jobs")
        .select(["data_source_id", "kind", "user_id", "file_name"])
        .where("organisation_id", "=", organisationId)
        .orderBy("created_at")
        .execute();

    it("queues the import of a schedule that comes due, and not of one still to come", async () => {
      const { organisationId, ids } = await sources(["At six", "At five past six"]);
      const [six, fivePast] = ids as [string, string];
      const daily = (dataSourceId: string, minute: number): ImportSchedule => ({
        dataSourceId,
        timeZone: "Pacific/Auckland",
        country: "NewZealand",
        interval: "Daily",
        dayOfMonth: null,
        dayOfWeek: null,
        hour: 6,
        minute,
        amPm: "AM",
      });
      await saveImportSchedule(database.db, queue, organisationId, daily(six, 0), new Date(clock.now()));
      await saveImportSchedule(database.db, queue, organisationId, daily(fivePast, 5), new Date(clock.now()));

      // 05:59 in Auckland: neither is due.
      await clock.tick(60_000);
      expect(await importsOf(organisationId)).toEqual([]);

      // 06:01: the schedule at six has fired; the one at five past has not.
      await clock.tick(2 * 60_000);
      const fired = { kind: "Connector", user_id: null };
      await vi.waitFor(
        async () =>
          expect(await importsOf(organisationId)).toEqual([
            { ...fired, data_source_id: six, file_name: "QuickBooks: At six" },
          ]),
        { timeout: 10_000, interval: 20 },
      );

      // 06:06: now the one at five past, and the one at six not again.
      await clock.tick(5 * 60_000);
      await vi.waitFor(
        async () =>
          expect(await importsOf(organisationId)).toEqual([
            { ...fired, data_source_id: six, file_name: "QuickBooks: At six" },
            { ...fired, data_source_id: fivePast, file_name: "QuickBooks: At five past six" },
          ]),
        { timeout: 10_000, interval: 20 },
      );
    });
  });
}
