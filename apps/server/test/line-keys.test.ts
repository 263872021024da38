import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { describe, expect, it, vi } from "vitest";
import { restoreBackup, takeSnapshot } from "../src/imports/backups";
import { checkDimensionIds, holdOrganisation } from "../src/imports/store-invoice-lines";
import { testDatabaseKinds } from "./harness";
import { importSuite } from "./import-helpers";

// Invoice lines have no foreign keys: their keys are checked once per import or restore, and an
// organisation's lines go with it by a trigger (docs/storage.md, "Keys checked once per import").

const csv = (...rows: string[]) =>
  `${["InvoiceDate,InvoiceNumber,LineNumber,ClientCode,ItemCode,StockType,Quantity,Amount,Salesperson", ...rows].join("\n")}\n`;

for (const kind of testDatabaseKinds()) {
  describe(`the keys of invoice lines [${kind}]`, () => {
    const suite = importSuite(kind, "varia-line-keys-");
    const { organisation, importFile } = suite;

    const lineCount = async (organisationId: string) =>
      (
        await sql<{ n: number }>`select count(*)::int4 as n from invoice_lines
          where organisation_id = ${organisationId}`.execute(suite.database.db)
      ).rows[0]!.n;

    const file = csv(
      "2025-01-01,A-1,1,C1,PRO,Subscription,1,10.00,Jane",
      "2025-02-01,A-2,1,C2,SUP,Hourly,2,20.00,",
    );

    it("deletes an organisation's lines with it, and no other organisation's", async () => {
      const gone = await organisation("keys-gone");
      const kept = await organisation("keys-kept");
      await importFile(gone, file);
      await importFile(kept, file);
      expect(await lineCount(gone)).toBe(2);
      await suite.database.db.deleteFrom("organisations").where("id", "=", gone).execute();
      expect(await lineCount(gone)).toBe(0);
      expect(await lineCount(kept)).toBe(2);
    });

    it("gives an import's lines only ids of stored clients, items and salespeople", async () => {
      const org = await organisation("keys-ids");
      await importFile(org, file);
      const ids = async (table: "clients" | "items" | "salespeople") =>
        (
          await sql<{ id: number }>`select id::float8 as id from ${sql.table(table)}
            where organisation_id = ${org} order by id`.execute(suite.database.db)
        ).rows.map((r) => r.id);
      const [clients, items, salespeople] = [
        await ids("clients"),
        await ids("items"),
        await ids("salespeople"),
      ];
      const stored = { clientId: [0, ...clients], itemId: [0, ...items], salespersonId: [0, ...salespeople] };
      await expect(checkDimensionIds(suite.database.db, org, stored)).resolves.toBeUndefined();
      const unknown = Math.max(...clients, ...items, ...salespeople) + 1000;
      await expect(
        checkDimensionIds(suite.database.db, org, { ...stored, itemId: [0, unknown] }),
      ).rejects.toThrow(`The import would give lines item id ${unknown}, which is not stored`);
      // Another organisation's client is not this one's.
      const other = await organisation("keys-ids-other");
      await expect(checkDimensionIds(suite.database.db, other, stored)).rejects.toThrow(/client id/);
    });

    it("refuses to import into or restore an organisation that does not exist", async () => {
      await expect(holdOrganisation(suite.database.db, randomUUID())).rejects.toThrow(/does not exist/);
    });

    it.runIf(kind === "postgres")(
      "deletes the lines an import is writing when its organisation is deleted meanwhile (the deletion waits)",
      async () => {
        const org = await organisation("keys-deleted-meanwhile");
        await importFile(org, file);
        let held!: () => void;
        const isHeld = new Promise<void>((resolve) => {
          held = resolve;
        });
        let release!: () => void;
        const released = new Promise<void>((resolve) => {
          release = resolve;
        });
        // An import's transaction: it holds the organisation, then writes a line.
        const importing = suite.database.bulkTransaction(async (session) => {
          await holdOrganisation(session.db, org);
          held();
          await released;
          await sql`insert into invoice_lines (organisation_id, invoice_number, line_number, invoice_date,
              client_id, item_id, quantity, amount_cents, record_type)
            values (${org}, 'LATE-1', 1, '2025-03-01', 1, 1, 1, 100, 'Actual')`.execute(session.db);
        });
        await isHeld;
        // Meanwhile another connection deletes the organisation: it waits for the import's commit.
        let deleteDone = false;
        const deleted = suite.database.db
          .deleteFrom("organisations")
          .where("id", "=", org)
          .execute()
          .then(() => {
            deleteDone = true;
          });
        await vi.waitFor(
          async () => {
            const waiting = await sql<{ n: number }>`select count(*)::int4 as n from pg_stat_activity
              where wait_event_type = 'Lock' and query like 'delete from "organisations"%'`.execute(
              suite.database.db,
            );
            expect(deleteDone || waiting.rows[0]!.n > 0).toBe(true);
          },
          { timeout: 10_000, interval: 20 },
        );
        release();
        await importing;
        await deleted;
        expect(await lineCount(org)).toBe(0);
      },
    );

    it("refuses a restore that would leave a line naming a client that is not stored, and changes nothing", async () => {
      const org = await organisation("keys-restore");
      await importFile(org, file);
      const snapshot = await suite.database.bulkTransaction((session) =>
        takeSnapshot(session.db, org, "OnDemand"),
      );
      // A snapshot's line naming a client its organisation does not have.
      await sql`update backup_lines set client_id = client_id + 100000
        where organisation_id = ${org} and backup_id = ${snapshot.id} and invoice_number = 'A-2'`.execute(
        suite.database.db,
      );
      await expect(
        suite.database.bulkTransaction((session) => restoreBackup(session, org, snapshot.id)),
      ).rejects.toThrow(/invoice A-2, line 1 with client_id \d+, which is not stored/);
      expect(await lineCount(org)).toBe(2);
    });
  });
}
