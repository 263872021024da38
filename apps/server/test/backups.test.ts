import { randomUUID } from "node:crypto";
import { buffer } from "node:stream/consumers";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganisation } from "../src/admin/organisations";
import type { Database } from "../src/db/database";
import { backupFormat, portableBackup, readBackup, restoreBackup, takeBackup } from "../src/imports/backups";
import { blockLine, type StoredLine } from "../src/lines/line-block";
import { blocksOf, readLineBlocks, writeLineBlocks } from "../src/lines/line-blocks-store";
import { mergeBlocks } from "../src/lines/merge-blocks";
import { openTestDatabase, testDatabaseKinds } from "./harness";

const line = (invoice: number, extra: Partial<StoredLine> = {}): StoredLine => ({
  invoiceNumber: `INV-${invoice}`,
  lineNumber: 1,
  invoiceDay: 9_000 + invoice,
  clientId: 1,
  itemId: 1,
  salespersonId: 0,
  quantity: 12_345,
  unitPrice: null,
  amountCents: 1_000 + invoice,
  costCents: 0,
  serviceFromDay: null,
  serviceToDay: null,
  recordType: "Actual",
  ...extra,
});

for (const kind of testDatabaseKinds()) {
  describe(`backups of lines in blocks [${kind}]`, () => {
    let database: Database;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      ({ database, drop } = await openTestDatabase(kind));
    });
    afterAll(() => drop());

    async function organisation(tenant: string) {
      const { organisationId } = await createOrganisation(database.db, {
        tenant,
        name: tenant,
        adminEmail: `a@${tenant}.example.com`,
        adminPassword: "a long enough password",
      });
      return organisationId;
    }

    async function storedLines(organisationId: string) {
      const blocks = (await readLineBlocks(database, organisationId)).map((b) => b.block);
      return [...mergeBlocks(blocks)].map(([block, row]) => blockLine(block, row));
    }

    it("keep the blocks as they were, restore them, and download as the portable file of every line", async () => {
      const organisationId = await organisation("blocks");
      const [jobA, jobB] = [randomUUID(), randomUUID()];
      const lines = Array.from({ length: 7 }, (_, i) => line(i, { salespersonId: i % 2, unitPrice: i * 5 }));
      await database.bulkTransaction(async (session) => {
        await writeLineBlocks(session, organisationId, jobA, blocksOf(lines.slice(0, 3)));
        await writeLineBlocks(session, organisationId, jobB, blocksOf(lines.slice(3)));
      });
      const taken = await database.bulkTransaction((session) =>
        takeBackup(session, organisationId, "OnDemand"),
      );
      expect(taken.lineCount).toBe(7);

      // Lines change after the backup; restoring it brings back the seven, in two blocks again.
      await database.bulkTransaction((session) =>
        writeLineBlocks(session, organisationId, randomUUID(), blocksOf([line(99)])),
      );
      const restored = await database.bulkTransaction(async (session) => {
        const row = await session.db
          .selectFrom("backups")
          .select("data")
          .where("id", "=", taken.id)
          .executeTakeFirstOrThrow();
        return restoreBackup(session, organisationId, taken.id, readBackup(row.data));
      });
      expect(restored).toBe(7);
      expect(await storedLines(organisationId)).toEqual(lines);
      expect((await readLineBlocks(database, organisationId)).map((b) => b.jobId)).toEqual([jobA, jobB]);

      const portable = await portableBackup(database, organisationId, taken.id);
      const content = JSON.parse(gunzipSync(await buffer(portable!.file)).toString("utf8"));
      expect(content.format).toBe(backupFormat);
      expect(content.invoiceLines.map((l: { invoice_number: string }) => l.invoice_number)).toEqual(
        lines.map((l) => l.invoiceNumber),
      );
      expect(content.invoiceLines[4]).toMatchObject({
        invoice_number: "INV-4",
        invoice_date: "2024-08-26",
        quantity: "1.2345",
        unit_price: "0.0020",
        amount_cents: "1004",
        salesperson_id: null,
        import_job_id: jobB,
      });
      expect(await portableBackup(database, organisationId, randomUUID())).toBeNull();
    });

    it("restore a backup stored before blocks (every line in its JSON)", async () => {
      const organisationId = await organisation("oldbackup");
      const id = randomUUID();
      const data = gzipSync(
        JSON.stringify({
          format: backupFormat,
          createdAt: new Date().toISOString(),
          clients: [{ id: "1", code: "C1", name: "One" }],
          items: [{ id: "1", code: "I1", name: "Item", stock_type: "Subscription", category: null }],
          salespeople: [],
          invoiceLines: [
            {
              invoice_number: "OLD-1",
              line_number: 2,
              invoice_date: "2025-02-01",
              client_id: "1",
              item_id: "1",
              salesperson_id: null,
              quantity: "3.5000",
              unit_price: null,
              amount_cents: "-250",
              cost_cents: "10",
              service_from: "2025-02-01",
              service_to: "2025-04-30",
              record_type: "Budget",
              import_job_id: null,
            },
          ],
        }),
      );
      await database.db
        .insertInto("backups")
        .values({
          organisation_id: organisationId,
          id,
          reason: "OnDemand",
          line_count: 1,
          size_bytes: 1,
          data,
        })
        .execute();
      const portable = await portableBackup(database, organisationId, id);
      expect(Buffer.compare(await buffer(portable!.file), data)).toBe(0);
      const restored = await database.bulkTransaction((session) =>
        restoreBackup(session, organisationId, id, readBackup(data)),
      );
      expect(restored).toBe(1);
      expect(await storedLines(organisationId)).toEqual([
        line(0, {
          invoiceNumber: "OLD-1",
          lineNumber: 2,
          invoiceDay: 9163,
          quantity: 35_000,
          amountCents: -250,
          costCents: 10,
          serviceFromDay: 9163,
          serviceToDay: 9251,
          recordType: "Budget",
        }),
      ]);
    });
  });
}
