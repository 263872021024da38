import { type Kysely, type RawBuilder, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createOrganisation } from "../src/admin/organisations";
import type { Database } from "../src/db/database";
import { listMigrations, migrate } from "../src/db/migrate";
import type { Schema } from "../src/db/schema";
import { restoreBackup, takeSnapshot } from "../src/imports/backups";
import { hasLinePartition, linePartition } from "../src/imports/store-invoice-lines";
import { countInvoiceLinesQuery, invoiceLinePageQuery } from "../src/lines/invoice-line-table";
import { openTestDatabase, testDatabaseKinds } from "./harness";
import { importSuite } from "./import-helpers";

// invoice_lines has a partition per organisation, which its first import loads and indexes before
// attaching it (docs/storage.md, "Lines are rows" and "An import: staging, then one merge").
// Level 4's page reads the partial date index of each record type of a partition, both ways
// (docs/storage.md, "Level 4's page").

const csv = (...rows: string[]) =>
  `${["InvoiceDate,InvoiceNumber,LineNumber,ClientCode,ItemCode,StockType,Quantity,Amount,Salesperson", ...rows].join("\n")}\n`;

/** The indexes of invoice_lines, each with the one of its partitions that is attached to it. */
const parentIndexes = [
  "invoice_lines_actual_date",
  "invoice_lines_budget_date",
  "invoice_lines_client_item",
  "invoice_lines_forecast_date",
  "invoice_lines_pkey",
  "invoice_lines_service",
];

/** A partition's indexes: each with the index of invoice_lines it is attached to (or null). */
const attachedIndexes = async (db: Kysely<Schema>, partition: string) =>
  (
    await sql<{ name: string; parent: string | null }>`select c.relname as name, p.relname as parent
      from pg_index x join pg_class c on c.oid = x.indexrelid
        left join pg_inherits i on i.inhrelid = x.indexrelid
        left join pg_class p on p.oid = i.inhparent
      where x.indrelid = to_regclass(${partition}) order by p.relname`.execute(db)
  ).rows;

/** Each of invoice_lines' indexes with the partition's of the same name attached to it. */
const indexesAttachedTo = (partition: string) =>
  parentIndexes.map((parent) => ({ name: `${partition}_${parent.slice("invoice_lines_".length)}`, parent }));

/** The definitions of a table's indexes (from `using btree` on), sorted. */
const definitionsOf = async (db: Kysely<Schema>, table: string) =>
  (
    await sql<{ definition: string }>`select pg_get_indexdef(x.indexrelid) as definition
      from pg_index x where x.indrelid = to_regclass(${table})`.execute(db)
  ).rows
    .map((r) => r.definition.replace(/^.* USING btree /, ""))
    .sort();

/** The key and indexes of invoice_lines and of each partition since migration 130. */
const lineIndexDefinitions = [
  "(client_id, item_id, invoice_date)",
  "(invoice_date, invoice_number, line_number) WHERE (record_type = 'Actual'::text)",
  "(invoice_date, invoice_number, line_number) WHERE (record_type = 'Budget'::text)",
  "(invoice_date, invoice_number, line_number) WHERE (record_type = 'Forecast'::text)",
  "(invoice_number, line_number, organisation_id)",
  "(service_to) WHERE (service_from IS NOT NULL)",
];

/** A node of `explain (format json)`. */
interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Scan Direction"?: string;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/**
 * The nodes of a query's plan: with its parameters known to the planner, as it is run, or a generic
 * plan (`plan_cache_mode = force_generic_plan`), planned for any value of its parameters (EXECUTE
 * takes no parameters of its own: they are written in, and an array as text, the test's being plain).
 */
async function planOf(database: Database, query: RawBuilder<unknown>, generic: boolean) {
  type Explained = { "QUERY PLAN": [{ Plan: PlanNode }] };
  const explained = generic
    ? await database.bulkTransaction(async ({ db }) => {
        const compiled = query.compile(db);
        await sql`set local plan_cache_mode = force_generic_plan`.execute(db);
        await sql`prepare planned as ${sql.raw(compiled.sql)}`.execute(db);
        const plan = await sql<Explained>`explain (format json) execute planned(${sql.join(
          compiled.parameters.map((p) =>
            sql.lit(Array.isArray(p) ? `{${p.join(",")}}` : (p as string | number)),
          ),
        )})`.execute(db);
        await sql`deallocate planned`.execute(db);
        return plan;
      })
    : await sql<Explained>`explain (format json) ${query}`.execute(database.db);
  return nodesOf(explained.rows[0]!["QUERY PLAN"][0].Plan);
}

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

    const indexesOf = (partition: string) => attachedIndexes(suite.database.db, partition);

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

    it("loads a first import into the organisation's own partition, with its key and indexes attached", async () => {
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
      expect(await indexesOf(partition)).toEqual(indexesAttachedTo(partition));
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
      expect(await indexesOf(partition)).toHaveLength(6);
      expect(await definitionsOf(suite.database.db, partition)).toEqual(lineIndexDefinitions);
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
      expect(await indexesOf(linePartition(org))).toHaveLength(6);
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
      expect(await indexesOf(linePartition(org))).toHaveLength(6);
    });

    it("reads level 4's page by date in the partial index of each record type, both directions", async () => {
      const org = await organisation("parts-plan");
      const clients = Array.from(
        { length: 50 },
        (_, c) => `2025-01-01,A-${c},1,C${c},PRO,Subscription,1,10.00,`,
      );
      await importFile(org, csv(...clients));
      const partition = linePartition(org);
      // 24 months of 2,000 lines of 50 clients (one in 20 Budget, the others Actual), and a line with
      // a service period each month.
      await sql`insert into invoice_lines (organisation_id, invoice_number, line_number, invoice_date,
          client_id, item_id, quantity, amount_cents, record_type, service_from, service_to)
        select ${org}, 'P-' || g, 1, date '2024-01-01' + (g % 24) * interval '1 month', c.id, i.id, 1, g,
          case when g % 20 = 0 then 'Budget' else 'Actual' end,
          case when g < 24 then date '2024-01-01' + g * interval '1 month' end,
          case when g < 24 then date '2024-12-31' + g * interval '1 month' end
        from generate_series(1, 48000) g join clients c on c.organisation_id = ${org} and c.code = 'C' || g % 50
          join items i on i.organisation_id = ${org} and i.code = 'PRO'`.execute(suite.database.db);
      await sql`analyze ${sql.table(partition)}`.execute(suite.database.db);
      // As the page is run (the planner knows its parameters), and as a generic plan, which a
      // prepared statement run many times may be given: the record type is in its SQL, not a parameter.
      for (const [sortDir, generic] of [
        ["asc", false],
        ["desc", false],
        ["asc", true],
        ["desc", true],
      ] as const) {
        const page = invoiceLinePageQuery(org, {
          first: "2025-11-01",
          afterLast: "2026-01-01",
          recordTypes: ["Actual", "Budget"],
          sortDir,
          startRow: 0,
          rowLimit: 100,
        });
        const nodes = await planOf(suite.database, page, generic);
        const direction = sortDir === "asc" ? "Forward" : "Backward";
        for (const type of ["actual", "budget"])
          expect(nodes).toContainEqual(
            expect.objectContaining({
              "Node Type": "Index Scan",
              "Index Name": `${partition}_${type}_date`,
              "Scan Direction": direction,
            }),
          );
        // No line is sorted but those with a service period, and no line is read but through an index.
        const sorts = nodes.filter((n) => n["Node Type"] === "Sort");
        expect(
          sorts.map((n) =>
            nodesOf(n)
              .map((m) => m["Index Name"])
              .filter(Boolean),
          ),
        ).toEqual([[`${partition}_service`]]);
        expect(nodes.map((n) => n["Node Type"])).not.toContain("Seq Scan");
      }
      // The count of the view reads the same indexes, for each record type and the service periods.
      for (const generic of [false, true]) {
        const count = countInvoiceLinesQuery(org, {
          first: "2025-11-01",
          afterLast: "2026-01-01",
          recordTypes: ["Actual", "Budget"],
        });
        const nodes = await planOf(suite.database, count, generic);
        expect(
          nodes.filter((n) => n["Node Type"] === "Bitmap Index Scan").map((n) => n["Index Name"]),
        ).toEqual([`${partition}_actual_date`, `${partition}_budget_date`, `${partition}_service`]);
        expect(nodes.map((n) => n["Node Type"])).not.toContain("Seq Scan");
      }
    });

    it("refuses a record type that is not one, before it is written into the page's SQL", () => {
      const query = {
        first: "2025-11-01",
        afterLast: "2026-01-01",
        sortDir: "desc",
        startRow: 0,
        rowLimit: 100,
      } as const;
      expect(() =>
        invoiceLinePageQuery(crypto.randomUUID(), { ...query, recordTypes: ["Actual", "Plan'--"] }),
      ).toThrow('Not a record type: "Plan\'--" (one of Actual, Budget, Forecast)');
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
        await migratedTo(database, 90);
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
        expect(
          await migrate(
            database,
            listMigrations().filter((m) => m.version <= 120),
          ),
        ).toEqual([100, 110, 120]);
        for (const org of orgs) {
          const rows = await sql<{
            n: number;
            sum: string;
          }>`select count(*)::int4 as n, sum(amount_cents)::text as sum
            from ${sql.table(linePartition(org))}`.execute(database.db);
          expect(rows.rows[0]).toEqual({ n: 3, sum: "600" });
        }
        // Migration 110: the partitions' key and indexes without the organisation at their head.
        expect(await definitionsOf(database.db, linePartition(orgs[0]!))).toEqual([
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
  describe(`migration 130, a partial date index per record type [${kind}]`, () => {
    it("replaces the record type's date index in the partitions there are, and in those to come", async () => {
      const { database, drop } = await openTestDatabase(kind);
      try {
        // The database as migration 120 left it, with a partition of Actual and Budget lines.
        await migratedTo(database, 120);
        const org = async (tenant: string) =>
          (
            await createOrganisation(database.db, {
              tenant,
              name: tenant,
              adminEmail: `a@${tenant}.example.com`,
              adminPassword: "a long enough password",
            })
          ).organisationId;
        const load = async (organisationId: string) => {
          await sql`select create_invoice_line_table(${organisationId})`.execute(database.db);
          await sql`insert into ${sql.table(linePartition(organisationId))} (organisation_id, invoice_number,
              line_number, invoice_date, client_id, item_id, quantity, amount_cents, record_type)
            select ${organisationId}, 'I-' || g, 1, date '2025-01-01' + g, 1, 1, 1, g * 100,
              case when g % 3 = 0 then 'Budget' else 'Actual' end
            from generate_series(1, 30) g`.execute(database.db);
          await sql`select attach_invoice_line_table(${organisationId})`.execute(database.db);
        };
        const before = await org("mig130-before");
        await load(before);
        expect(await attachedIndexes(database.db, linePartition(before))).toContainEqual({
          name: `${linePartition(before)}_type_date`,
          parent: "invoice_lines_type_date",
        });

        expect(
          await migrate(
            database,
            listMigrations().filter((m) => m.version <= 130),
          ),
        ).toEqual([130]);
        expect(await definitionsOf(database.db, "invoice_lines")).toEqual(lineIndexDefinitions);
        // The partition's indexes, named as attach_invoice_line_table names them, are the parent's.
        expect(await attachedIndexes(database.db, linePartition(before))).toEqual(
          indexesAttachedTo(linePartition(before)),
        );
        expect(await definitionsOf(database.db, linePartition(before))).toEqual(lineIndexDefinitions);
        // A first import's table after it: its indexes are the parent's too, none built by the attach.
        const after = await org("mig130-after");
        await load(after);
        expect(await attachedIndexes(database.db, linePartition(after))).toEqual(
          indexesAttachedTo(linePartition(after)),
        );
        const counts = await sql<{ type: string; n: number }>`select record_type as type, count(*)::int4 as n
          from invoice_lines where organisation_id = ${before} group by 1 order by 1`.execute(database.db);
        expect(counts.rows).toEqual([
          { type: "Actual", n: 20 },
          { type: "Budget", n: 10 },
        ]);
      } finally {
        await drop();
      }
    });
  });
}

/** The database emptied, then migrated up to (and with) `version` only. */
async function migratedTo(database: Database, version: number) {
  await sql`drop schema public cascade`.execute(database.db);
  await sql`create schema public`.execute(database.db);
  await migrate(
    database,
    listMigrations().filter((m) => m.version <= version),
  );
}
