import { randomUUID } from "node:crypto";
import { buffer } from "node:stream/consumers";
import { gunzipSync } from "node:zlib";
import { recordTypes } from "@varia/contracts";
import fc from "fast-check";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { CubeCellsBuilder } from "../src/cube/cube-cells";
import { cellsVersion, readCubeSnapshot, writeCubeSnapshot } from "../src/cube/cube-snapshot";
import { rebuildMonthlyCube } from "../src/cube/monthly-cube";
import { backupFormat, portableBackup, restoreBackup, takeSnapshot } from "../src/imports/backups";
import { testDatabaseKinds } from "./harness";
import { importSuite } from "./import-helpers";

const header =
  "InvoiceDate,InvoiceNumber,LineNumber,ClientCode,ClientName,ItemCode,ItemName,StockType,Quantity,UnitPrice,Amount,Cost,Salesperson,ServiceFrom,ServiceTo,RecordType,Category";

const csv = (...rows: string[]) => `${[header, ...rows].join("\n")}\n`;

for (const kind of testDatabaseKinds()) {
  describe(`backups as undo records and snapshots [${kind}]`, () => {
    const suite = importSuite(kind, "varia-backups-");
    const { organisation, importFile } = suite;

    async function restore(organisationId: string, backupId: string) {
      return suite.database.bulkTransaction((session) => restoreBackup(session, organisationId, backupId));
    }

    /** Everything a restore puts back: lines (with the import that wrote each), dimensions, cube. */
    async function state(organisationId: string) {
      const rows = async (query: ReturnType<typeof sql>) =>
        (await (query as ReturnType<typeof sql<Record<string, unknown>>>).execute(suite.database.db)).rows;
      return {
        lines: await rows(sql`select invoice_number, line_number, invoice_date::text, client_id::text,
            item_id::text, salesperson_id::text, quantity::text, unit_price::text, amount_cents::text,
            cost_cents::text, service_from::text, service_to::text, record_type, import_job_id
          from invoice_lines where organisation_id = ${organisationId} order by invoice_number, line_number`),
        clients: await rows(sql`select id::text, code, name from clients
          where organisation_id = ${organisationId} order by id`),
        items: await rows(sql`select id::text, code, name, stock_type, category from items
          where organisation_id = ${organisationId} order by id`),
        salespeople: await rows(sql`select id::text, name from salespeople
          where organisation_id = ${organisationId} order by id`),
        cube: await cube(organisationId),
      };
    }

    async function cube(organisationId: string) {
      const result = await sql<Record<string, unknown>>`select record_type, month::text, client_id::text,
          item_id::text, salesperson_id::text, quantity::text, revenue_cents::text, cost_cents::text, line_count
        from monthly_cube where organisation_id = ${organisationId}
        order by record_type, month, client_id, item_id, salesperson_id`.execute(suite.database.db);
      return result.rows;
    }

    async function undoRecordOf(organisationId: string, jobId: string) {
      const row = await suite.database.db
        .selectFrom("backups")
        .select(["id", "line_count"])
        .where("organisation_id", "=", organisationId)
        .where("import_job_id", "=", jobId)
        .executeTakeFirstOrThrow();
      return row;
    }

    const fileA = csv(
      "2025-01-05,A-1,1,C1,Acme,PRO,Pro plan,Subscription,2,10.00,,,Jane,,,Actual,Recurring",
      "2025-01-05,A-1,2,C1,Acme,SUP,Support,Hourly,1.5,80.00,,,Jane,,,Actual,",
      "2025-02-01,A-2,1,C2,Globex,ANN,Annual,Subscription,1,,1200.00,100.00,Raj,2025-02-01,2026-01-31,Actual,Recurring",
    );
    // Replaces A-1/2 and A-2/1, renames C1, adds a client, an item and a salesperson.
    const fileB = csv(
      "2025-01-05,A-1,2,C1,Acme Ltd,SUP,Support,Hourly,3,80.00,,,Jane,,,Actual,",
      "2025-02-01,A-2,1,C2,Globex,ANN,Annual,Subscription,1,,1500.00,100.00,Raj,2025-02-01,2026-01-31,Actual,Recurring",
      "2025-03-01,B-1,1,C3,Initech,HW,Router,Product,1,,250.00,180.00,Ann,,,Actual,Adhoc",
    );
    // Replaces a line of each earlier file, and a Budget line.
    const fileC = csv(
      "2025-01-05,A-1,1,C1,Acme Ltd,PRO,Pro plan,Subscription,4,10.00,,,Jane,,,Actual,",
      "2025-03-01,B-1,1,C3,Initech,HW,Router,Product,1,,275.00,180.00,Ann,,,Actual,",
      "2025-04-01,C-1,1,C4,Hooli,PRO,Pro plan,Subscription,1,10.00,,,,,,Budget,",
    );

    it("keep the lines an import replaced; a restore after three imports brings back exactly the state before the chosen one", async () => {
      const org = await organisation("undo");
      const empty = await state(org);
      const jobA = await importFile(org, fileA);
      const afterA = await state(org);
      const jobB = await importFile(org, fileB);
      const afterB = await state(org);
      const jobC = await importFile(org, fileC);
      // An undo record holds what its import replaced, not the organisation.
      expect((await undoRecordOf(org, jobA)).line_count).toBe(0);
      expect((await undoRecordOf(org, jobB)).line_count).toBe(2);
      expect((await undoRecordOf(org, jobC)).line_count).toBe(2);

      // Back to before B: C and B are undone, newest first.
      expect(await restore(org, (await undoRecordOf(org, jobB)).id)).toBe(3);
      expect(await state(org)).toEqual(afterA);
      // The restore itself can be undone: the snapshot taken before it brings back C's state.
      const beforeRestore = await suite.database.db
        .selectFrom("backups")
        .select("id")
        .where("organisation_id", "=", org)
        .where("reason", "=", "BeforeRestore")
        .executeTakeFirstOrThrow();
      await restore(org, beforeRestore.id);
      const afterC = await state(org);
      expect(afterC.lines).toHaveLength(5);
      // Back to before A, across that restore: nothing is left.
      await restore(org, (await undoRecordOf(org, jobA)).id);
      expect(await state(org)).toEqual(empty);
      // And to before C from there: the snapshot before the last restore, then C undone.
      await restore(org, (await undoRecordOf(org, jobC)).id);
      expect(await state(org)).toEqual(afterB);
    });

    it("refuse to undo imports back past an import whose undo record was deleted", async () => {
      const org = await organisation("gap");
      const jobA = await importFile(org, fileA);
      const jobB = await importFile(org, fileB);
      await importFile(org, fileC);
      const before = await state(org);
      await suite.database.db
        .deleteFrom("backups")
        .where("id", "=", (await undoRecordOf(org, jobB)).id)
        .execute();
      await expect(restore(org, (await undoRecordOf(org, jobA)).id)).rejects.toThrow(
        `This backup cannot be restored: the backup taken before a later import (job ${jobB}) was deleted`,
      );
      expect(await state(org)).toEqual(before);
    });

    it("keep as many undo records as the organisation's setting says, and every snapshot", async () => {
      const org = await organisation("retention");
      await suite.database.db
        .insertInto("organisation_settings")
        .values({ organisation_id: org, backups_to_keep: 2 })
        .execute();
      await suite.database.db.transaction().execute((tx) => takeSnapshot(tx, org, "OnDemand"));
      const jobs = [await importFile(org, fileA), await importFile(org, fileB), await importFile(org, fileC)];
      const kept = await suite.database.db
        .selectFrom("backups")
        .select(["reason", "import_job_id"])
        .where("organisation_id", "=", org)
        .orderBy("created_at")
        .execute();
      expect(kept).toEqual([
        { reason: "OnDemand", import_job_id: null },
        { reason: "BeforeImport", import_job_id: jobs[1] },
        { reason: "BeforeImport", import_job_id: jobs[2] },
      ]);
    });

    it("take a snapshot by hand, restore it, and download it as the portable file of every line", async () => {
      const org = await organisation("snapshot");
      const jobA = await importFile(org, fileA);
      const afterA = await state(org);
      const taken = await suite.database.db.transaction().execute((tx) => takeSnapshot(tx, org, "OnDemand"));
      expect(taken.lineCount).toBe(3);
      await importFile(org, fileB);
      expect(await restore(org, taken.id)).toBe(3);
      expect(await state(org)).toEqual(afterA);

      const portable = await portableBackup(suite.database, org, taken.id);
      const content = JSON.parse(gunzipSync(await buffer(portable!.file)).toString("utf8"));
      expect(content).toMatchObject({ format: backupFormat, kind: "Snapshot", undoesImport: null });
      expect(content.clients.map((c: { code: string }) => c.code)).toEqual(["C1", "C2"]);
      expect(content.invoiceLines.map((l: { invoice_number: string }) => l.invoice_number)).toEqual([
        "A-1",
        "A-1",
        "A-2",
      ]);
      expect(content.invoiceLines[2]).toMatchObject({
        invoice_number: "A-2",
        line_number: 1,
        invoice_date: "2025-02-01",
        quantity: "1.0000",
        unit_price: null,
        amount_cents: "120000",
        cost_cents: "10000",
        service_from: "2025-02-01",
        service_to: "2026-01-31",
        record_type: "Actual",
        import_job_id: jobA,
      });
      expect(await portableBackup(suite.database, org, randomUUID())).toBeNull();
      expect(await restore(org, randomUUID())).toBeNull();
    });

    /** The cells of the snapshot and of `monthly_cube`, in one form and order. */
    async function snapshotAndTable(organisationId: string) {
      const snapshot = (
        await readCubeSnapshot(
          suite.database.db,
          organisationId,
          await cellsVersion(suite.database.db, organisationId),
        )
      )?.cells;
      const fromSnapshot = Array.from({ length: snapshot?.month.length ?? 0 }, (_, i) =>
        [
          recordTypes[snapshot!.recordType[i]!],
          snapshot!.month[i],
          snapshot!.clientId[i],
          snapshot!.itemId[i],
          snapshot!.salespersonId[i],
          snapshot!.quantity[i],
          snapshot!.revenue[i],
          snapshot!.cost[i],
          snapshot!.lines[i],
        ].join(" "),
      ).sort();
      const table = await sql<{ cell: string }>`select concat_ws(' ', record_type,
          extract(year from month)::int * 12 + extract(month from month)::int - 1, client_id, item_id,
          salesperson_id, (quantity * 10000)::bigint, revenue_cents, cost_cents, line_count) as cell
        from monthly_cube where organisation_id = ${organisationId}`.execute(suite.database.db);
      return { snapshot: snapshot && fromSnapshot, table: table.rows.map((r) => r.cell).sort() };
    }

    it("change the cube cell by cell as the cube rebuilt from the rows, over any sequence of imports", async () => {
      const org = await organisation("cubeprop");
      // The snapshot as a server writes it when it first reads the (empty) cube; imports change it.
      await writeCubeSnapshot(
        suite.database.db,
        org,
        await cellsVersion(suite.database.db, org),
        new CubeCellsBuilder().finish(),
      );
      const clients = ["C1", "C2", "C3"];
      const items = [
        ["PRO", "Subscription"],
        ["HW", "Product"],
        ["SUP", "Hourly"],
      ];
      const lineArb = fc.record({
        invoice: fc.integer({ min: 1, max: 6 }),
        line: fc.integer({ min: 1, max: 3 }),
        month: fc.integer({ min: 1, max: 12 }),
        client: fc.constantFrom(...clients),
        item: fc.constantFrom(...items),
        salesperson: fc.constantFrom("", "Jane", "Raj"),
        cents: fc.integer({ min: -50_000, max: 50_000 }),
        cost: fc.integer({ min: 0, max: 999 }),
        months: fc.option(fc.integer({ min: 1, max: 14 }), { nil: undefined }),
        type: fc.constantFrom("Actual", "Budget"),
      });
      const fileArb = fc.uniqueArray(lineArb, {
        minLength: 1,
        maxLength: 8,
        selector: (l) => `${l.invoice}/${l.line}`,
      });
      const money = (cents: number) =>
        `${cents < 0 ? "-" : ""}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, "0")}`;
      await fc.assert(
        fc.asyncProperty(fc.array(fileArb, { minLength: 1, maxLength: 4 }), async (files) => {
          for (const lines of files) {
            const rows = lines.map((l) => {
              const date = `2025-${String(l.month).padStart(2, "0")}-01`;
              const to = l.months
                ? new Date(Date.UTC(2025, l.month - 1 + l.months, 0)).toISOString().slice(0, 10)
                : "";
              return [
                date,
                `I-${l.invoice}`,
                l.line,
                l.client,
                l.client,
                l.item[0],
                l.item[0],
                l.item[1],
                1,
                "",
                money(l.cents),
                money(l.cost),
                l.salesperson,
                l.months ? date : "",
                to,
                l.type,
                "",
              ].join(",");
            });
            await importFile(org, csv(...rows));
          }
          const { snapshot, table } = await snapshotAndTable(org);
          expect(snapshot).toEqual(table);
          const incremental = await cube(org);
          await suite.database.bulkTransaction((session) => rebuildMonthlyCube(session, org));
          expect(incremental).toEqual(await cube(org));
        }),
        { numRuns: 15 },
      );
    });
  });
}
