import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganisation } from "../src/admin/organisations";
import type { Database } from "../src/db/database";
import { blockLine } from "../src/lines/line-block";
import { readLineBlocks } from "../src/lines/line-blocks-store";
import { mergeBlocks } from "../src/lines/merge-blocks";
import { moveLegacyInvoiceLines } from "../src/lines/move-legacy-lines";
import { openTestDatabase, testDatabaseKinds } from "./harness";

for (const kind of testDatabaseKinds()) {
  describe(`invoice lines stored one row each before blocks [${kind}]`, () => {
    let database: Database;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      ({ database, drop } = await openTestDatabase(kind));
    });
    afterAll(() => drop());

    it("move into blocks on start, every value kept, each import's lines naming it", async () => {
      const { organisationId } = await createOrganisation(database.db, {
        tenant: "legacy",
        name: "Legacy Ltd",
        adminEmail: "a@legacy.example.com",
        adminPassword: "a long enough password",
      });
      const [jobA, jobB] = [randomUUID(), randomUUID()];
      await sql`insert into invoice_lines (organisation_id, invoice_number, line_number, invoice_date, client_id,
          item_id, salesperson_id, quantity, unit_price, amount_cents, cost_cents, service_from, service_to,
          record_type, import_job_id)
        values (${organisationId}, 'INV-2', 1, '2025-03-15', 11, 21, null, 2.5, null, -1999, 0, null, null, 'Actual', ${jobA}),
               (${organisationId}, 'INV-1', 2, '2025-02-01', 12, 22, 31, 1.2345, 99.9999, 123456789012, 77,
                '2025-02-01', '2026-01-31', 'Budget', ${jobB}),
               (${organisationId}, 'INV-1', 1, '2024-12-31', 11, 21, 31, 1, 10, 1000, 5, null, null, 'Forecast', ${jobA})`.execute(
        database.db,
      );

      expect(await moveLegacyInvoiceLines(database)).toBe(3);
      const left = await sql<{ n: string }>`select count(*)::text as n from invoice_lines`.execute(
        database.db,
      );
      expect(left.rows[0]!.n).toBe("0");

      const stored = await readLineBlocks(database, organisationId);
      expect(stored.map((b) => b.jobId).sort()).toEqual([jobA, jobB].sort());
      const lines = [...mergeBlocks(stored.map((b) => b.block))].map(([block, row]) => blockLine(block, row));
      expect(lines).toEqual([
        {
          invoiceNumber: "INV-1",
          lineNumber: 1,
          invoiceDay: 9131,
          clientId: 11,
          itemId: 21,
          salespersonId: 31,
          quantity: 10_000,
          unitPrice: 100_000,
          amountCents: 1000,
          costCents: 5,
          serviceFromDay: null,
          serviceToDay: null,
          recordType: "Forecast",
        },
        {
          invoiceNumber: "INV-1",
          lineNumber: 2,
          invoiceDay: 9163,
          clientId: 12,
          itemId: 22,
          salespersonId: 31,
          quantity: 12_345,
          unitPrice: 999_999,
          amountCents: 123_456_789_012,
          costCents: 77,
          serviceFromDay: 9163,
          serviceToDay: 9527,
          recordType: "Budget",
        },
        {
          invoiceNumber: "INV-2",
          lineNumber: 1,
          invoiceDay: 9205,
          clientId: 11,
          itemId: 21,
          salespersonId: 0,
          quantity: 25_000,
          unitPrice: null,
          amountCents: -1999,
          costCents: 0,
          serviceFromDay: null,
          serviceToDay: null,
          recordType: "Actual",
        },
      ]);
      // Nothing left to move: a second start changes nothing.
      expect(await moveLegacyInvoiceLines(database)).toBe(0);
      expect(await readLineBlocks(database, organisationId)).toHaveLength(2);
    });
  });
}
