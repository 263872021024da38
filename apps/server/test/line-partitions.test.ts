import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createOrganisation } from "../src/admin/organisations";
import { listMigrations, migrate } from "../src/db/migrate";
import { restoreBackup, takeSnapshot } from "../src/imports/backups";
import { hasLinePartition, linePartition } from "../src/imports/store-invoice-lines";
import { openTestDatabase, testDatabaseKinds } from "./harness";
import { importSuite } from "./import-helpers";

// invoice_lines has a partition per organisation, which its first import loads and indexes before
// attaching it (docs/storage.md, "Lines are rows" and "An import: staging, then one merge").

const csv = (...rows: string[]) =>
  `${["InvoiceDate,InvoiceNumber,LineNumber,ClientCode,ItemCode,StockType,Quantity,Amount,Salesperson", ...rows].join("\n")}\n`;

/** The indexes of invoice_lines, each with the one of its partitions that is attached to it. */
const parentIndexes = [
  "invoice_lines_client_item",
  "invoice_lines_pkey",
  "invoice_lines_service",
  "invoice_lines_type_date",
];

for (const kind of testDatabaseKinds()) {
  describe(`invoice lines partitioned by organisation [${kind}]`, () => {
    const suite = importSuite(kind, "varia-line-partitions-");
    const { organisation, importFile } = suite;

    /** The partitions of invoice_lines, by name. */
    const partitions = async () =>
      (
        await sql<{
          name: string;
        }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
          where i.inhparent = 'invoice_lines'::regclass order by 1`.execute(suite.database.db)
      ).rows.map((r) => r.name);

    /** The partition's indexes: each with the index of invoice_lines it is attached to (or null). */
    const indexesOf = async (partition: string) =>
      (
        await sql<{ name: string; parent: string | null }>`select c.relname as name, p.relname as parent
          from pg_index x join pg_class c on c.oid = x.indexrelid
            left join pg_inherits i on i.inhrelid = x.indexrelid
            left join pg_class p on p.oid = i.inhparent
          where x.indrelid = to_regclass(${partition}) order by p.relname`.execute(suite.database.db)
      ).rows;

    const lines = async (organisationId: string) =>
      (
        await sql<{
          key: string;
          amount: string;
          job: string;
        }>`select invoice_number || '/' || line_number as key,
            amount_cents::text as amount, import_job_id::text as job
          from invoice_lines where organisation_id = ${organisationId} order by invoice_number, line_number`.execute(
          suite.database.db,
        )
      ).rows;

    it("loads a first import into the organisation's own partition, with its four indexes attached", async () => {
      const org = await organisation("parts-first");
      expect(await hasLinePartition(suite.database.db, org)).toBe(false);
      const job = await importFile(
        org,
        csv("2025-01-01,A-1,1,C1,PRO,Subscription,1,10.00,Jane", "2025-02-01,A-2,1,C2,SUP,Hourly,2,20.00,"),
      );
      const partition = linePartition(org);
      expect(partition).toBe(`invoice_lines_${org.replace(/-/g, "")}`);
      expect(await partitions()).toContain(partition);
      // The indexes built after the load are the partition's: none built again by the attach.
      expect(await indexesOf(partition)).toEqual(
        parentIndexes.map((parent) => ({
          name: `${partition}_${parent.slice("invoice_lines_".length)}`,
          parent,
        })),
      );
      const bounds = await sql<{ bound: string }>`select pg_get_expr(relpartbound, oid) as bound from pg_class
        where oid = to_regclass(${partition})`.execute(suite.database.db);
      expect(bounds.rows[0]!.bound).toBe(`FOR VALUES IN ('${org}')`);
      expect(await lines(org)).toEqual([
        { key: "A-1/1", amount: "1000", job },
        { key: "A-2/1", amount: "2000", job },
      ]);
      // The lines are in the partition itself.
      const own = await sql<{ n: number }>`select count(*)::int4 as n from ${sql.table(partition)}`.execute(
        suite.database.db,
      );
      expect(own.rows[0]!.n).toBe(2);

      // A second import goes into the same partition, replacing the lines with its keys.
      const second = await importFile(
        org,
        csv("2025-02-01,A-2,1,C2,SUP,Hourly,3,30.00,", "2025-03-01,A-3,1,C1,PRO,Subscription,1,40.00,Jane"),
      );
      expect(await lines(org)).toEqual([
        { key: "A-1/1", amount: "1000", job },
        { key: "A-2/1", amount: "3000", job: second },
        { key: "A-3/1", amount: "4000", job: second },
      ]);
      expect((await partitions()).filter((p) => p === partition)).toHaveLength(1);
      expect(await indexesOf(partition)).toHaveLength(4);
    });

    it("keeps each organisation's lines in its own partition", async () => {
      const a = await organisation("parts-a");
      const b = await organisation("parts-b");
      await importFile(a, csv("2025-01-01,A-1,1,C1,PRO,Subscription,1,10.00,"));
      await importFile(b, csv("2025-01-01,A-1,1,C1,PRO,Subscription,1,50.00,"));
      for (const [org, amount] of [
        [a, "1000"],
        [b, "5000"],
      ] as const) {
        const rows = await sql<{ organisation_id: string; amount: string }>`select organisation_id,
          amount_cents::text as amount from ${sql.table(linePartition(org))}`.execute(suite.database.db);
        expect(rows.rows).toEqual([{ organisation_id: org, amount }]);
      }
    });

    it("imports into an emptied partition through invoice_lines (a restore to before the first import)", async () => {
      const org = await organisation("parts-emptied");
      const first = await importFile(org, csv("2025-01-01,A-1,1,C1,PRO,Subscription,1,10.00,"));
      const undo = await suite.database.db
        .selectFrom("backups")
        .select("id")
        .where("organisation_id", "=", org)
        .where("import_job_id", "=", first)
        .executeTakeFirstOrThrow();
      await suite.database.bulkTransaction((session) => restoreBackup(session, org, undo.id));
      expect(await lines(org)).toEqual([]);
      expect(await hasLinePartition(suite.database.db, org)).toBe(true);
      const again = await importFile(org, csv("2025-01-01,A-9,1,C1,PRO,Subscription,1,90.00,"));
      expect(await lines(org)).toEqual([{ key: "A-9/1", amount: "9000", job: again }]);
      expect(await indexesOf(linePartition(org))).toHaveLength(4);
    });

    it("leaves no table behind when a first import fails after its lines were attached", async () => {
      const org = await organisation("parts-failed");
      // The cube's cells are written after the lines: refusing them fails the import late.
      await sql`create function refuse_cells() returns trigger language plpgsql as $$
          begin raise exception 'no space left on the device'; end $$`.execute(suite.database.db);
      await sql`create trigger refuse_cells before insert on monthly_cube
          for each row execute function refuse_cells()`.execute(suite.database.db);
      try {
        await expect(importFile(org, csv("2025-01-01,A-1,1,C1,PRO,Subscription,1,10.00,"))).rejects.toThrow(
          "no space left on the device",
        );
      } finally {
        await sql`drop trigger refuse_cells on monthly_cube`.execute(suite.database.db);
      }
      expect(await hasLinePartition(suite.database.db, org)).toBe(false);
      expect(await lines(org)).toEqual([]);
      const job = await importFile(org, csv("2025-01-01,A-1,1,C1,PRO,Subscription,1,10.00,"));
      expect(await lines(org)).toEqual([{ key: "A-1/1", amount: "1000", job }]);
    });

    it("drops an organisation's partition with it, and no other organisation's", async () => {
      const gone = await organisation("parts-gone");
      const kept = await organisation("parts-kept");
      await importFile(gone, csv("2025-01-01,A-1,1,C1,PRO,Subscription,1,10.00,"));
      await importFile(kept, csv("2025-01-01,A-1,1,C1,PRO,Subscription,1,10.00,"));
      await suite.database.db.deleteFrom("organisations").where("id", "=", gone).execute();
      expect(await hasLinePartition(suite.database.db, gone)).toBe(false);
      expect(await partitions()).toContain(linePartition(kept));
      expect(await lines(kept)).toHaveLength(1);
    });

    it.runIf(kind === "postgres")(
      "deletes an organisation's lines instead of dropping its partition while invoice_lines is in use",
      async () => {
        const gone = await organisation("parts-busy-gone");
        const kept = await organisation("parts-busy-kept");
        await importFile(gone, csv("2025-01-01,A-1,1,C1,PRO,Subscription,1,10.00,"));
        await importFile(kept, csv("2025-01-01,A-1,1,C1,PRO,Subscription,1,10.00,"));
        let reading!: () => void;
        const isReading = new Promise<void>((resolve) => {
          reading = resolve;
        });
        let release!: () => void;
        const released = new Promise<void>((resolve) => {
          release = resolve;
        });
        // Another transaction reads invoice_lines (another organisation's lines) and stays open.
        const reader = suite.database.bulkTransaction(async (session) => {
          await sql`select count(*) from invoice_lines where organisation_id = ${kept}`.execute(session.db);
          reading();
          await released;
        });
        await isReading;
        try {
          // The deletion neither waits for the reader nor makes it wait: the lines are deleted.
          await suite.database.db.deleteFrom("organisations").where("id", "=", gone).execute();
          expect(await lines(gone)).toEqual([]);
          expect(await hasLinePartition(suite.database.db, gone)).toBe(true);
          expect(await lines(kept)).toHaveLength(1);
        } finally {
          release();
          await reader;
        }
      },
    );

    it("restores a snapshot into an organisation that has no partition", async () => {
      const org = await organisation("parts-restore");
      await importFile(org, csv("2025-01-01,A-1,1,C1,PRO,Subscription,1,10.00,"));
      const snapshot = await suite.database.bulkTransaction((session) =>
        takeSnapshot(session.db, org, "OnDemand"),
      );
      // As a database migrated with the organisation's lines gone would have it: no partition.
      await sql`drop table ${sql.table(linePartition(org))}`.execute(suite.database.db);
      await suite.database.bulkTransaction((session) => restoreBackup(session, org, snapshot.id));
      expect((await lines(org)).map((l) => l.key)).toEqual(["A-1/1"]);
      expect(await indexesOf(linePartition(org))).toHaveLength(4);
    });

    it("refuses an id that is not a uuid as a partition's name", () => {
      expect(() => linePartition("x'); drop table invoice_lines; --")).toThrow("Not an organisation id");
    });
  });

  describe(`migrations 100 and 110, invoice lines partitioned [${kind}]`, () => {
    it("moves the lines stored before it into a partition per organisation", async () => {
      const { database, drop } = await openTestDatabase(kind);
      try {
        // The database as migration 090 left it, with lines of two organisations and a run job.
        await sql`drop schema public cascade`.execute(database.db);
        await sql`create schema public`.execute(database.db);
        await migrate(
          database,
          listMigrations().filter((m) => m.version < 100),
        );
        const orgs: string[] = [];
        for (const tenant of ["mig-a", "mig-b"]) {
          const { organisationId } = await createOrganisation(database.db, {
            tenant,
            name: tenant,
            adminEmail: `a@${tenant}.example.com`,
            adminPassword: "a long enough password",
          });
          orgs.push(organisationId);
          await sql`insert into invoice_lines (organisation_id, invoice_number, line_number, invoice_date,
              client_id, item_id, quantity, amount_cents, record_type, service_from, service_to)
            select ${organisationId}, 'I-' || g, 1, '2025-01-01', 1, 1, 1, g * 100, 'Actual',
              case when g % 2 = 0 then date '2025-01-01' end, case when g % 2 = 0 then date '2025-12-31' end
            from generate_series(1, 3) g`.execute(database.db);
        }
        expect(await migrate(database)).toEqual([100, 110, 120]);
        for (const org of orgs) {
          const rows = await sql<{
            n: number;
            sum: string;
          }>`select count(*)::int4 as n, sum(amount_cents)::text as sum
            from ${sql.table(linePartition(org))}`.execute(database.db);
          expect(rows.rows[0]).toEqual({ n: 3, sum: "600" });
        }
        // Migration 110: the partitions' key and indexes without the organisation at their head.
        const definitions = await sql<{
          definition: string;
        }>`select pg_get_indexdef(x.indexrelid) as definition
          from pg_index x where x.indrelid = to_regclass(${linePartition(orgs[0]!)}) `.execute(database.db);
        expect(definitions.rows.map((r) => r.definition.replace(/^.* USING btree /, "")).sort()).toEqual([
          "(client_id, item_id, invoice_date)",
          "(invoice_number, line_number, organisation_id)",
          "(record_type, invoice_date, invoice_number, line_number)",
          "(service_to) WHERE (service_from IS NOT NULL)",
        ]);
        const kindOf = await sql<{ kind: string }>`select relkind::text as kind from pg_class
          where oid = 'invoice_lines'::regclass`.execute(database.db);
        expect(kindOf.rows[0]!.kind).toBe("p");
        expect(
          (
            await sql`select 1 from pg_class where relname = 'invoice_lines_unpartitioned'`.execute(
              database.db,
            )
          ).rows,
        ).toEqual([]);
        // The checks of before hold on the partitioned table.
        await expect(
          sql`insert into invoice_lines (organisation_id, invoice_number, line_number, invoice_date, client_id,
              item_id, quantity, amount_cents, record_type) values (${orgs[0]}, 'X', 1, '2025-01-01', 1, 1, 1, 1, 'Plan')`.execute(
            database.db,
          ),
        ).rejects.toThrow(/invoice_lines_record_type/);
        // An organisation without a partition has no place for lines: a writer must create it first.
        const { organisationId: bare } = await createOrganisation(database.db, {
          tenant: "mig-c",
          name: "mig-c",
          adminEmail: "a@mig-c.example.com",
          adminPassword: "a long enough password",
        });
        await expect(
          sql`insert into invoice_lines (organisation_id, invoice_number, line_number, invoice_date, client_id,
              item_id, quantity, amount_cents, record_type) values (${bare}, 'X', 1, '2025-01-01', 1, 1, 1, 1, 'Actual')`.execute(
            database.db,
          ),
        ).rejects.toThrow(/no partition/);
      } finally {
        await drop();
      }
    });
  });
}
