import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { sql } from "kysely";
import { expect, it, vi } from "vitest";
import { convertQuickBooks } from "../src/connectors/quickbooks/convert-quickbooks";
import { cellsVersion, decodeCubeSnapshot } from "../src/cube/cube-snapshot";
import { runImportJob } from "../src/imports/import-jobs";
import { uploadReadingsTaken } from "../src/imports/upload-readings";
import { apiTokenCalls, describeWithServer, localFetch } from "./harness";

const header =
  "InvoiceDate,InvoiceNumber,LineNumber,ClientCode,ClientName,ItemCode,ItemName,StockType,Quantity,UnitPrice,Amount,Cost,Salesperson,ServiceFrom,ServiceTo,RecordType,Category";

const goodFile = [
  header,
  "2025-05-03,INV-1,1,C001,Acme Ltd,PRO,Pro plan,Subscription,5,20.00,,40.00,Jane,,,Actual,Recurring",
  "2025-05-03,INV-1,2,C001,Acme Ltd,SUP,Support,Hourly,2.5,95.005,,,Jane,,,,",
  // 1000.00 spread over May, June and July: 333.34, 333.33, 333.33
  "2025-05-10,INV-2,1,C002,Globex,ANN,Annual plan,Subscription,1,,1000.00,,Raj,2025-05-01,2025-07-31,Actual,Recurring",
  "2025-06-02,INV-3,,C002,Globex,HW,Router,Product,1,,250.00,180.00,Raj,,,Actual,Adhoc",
  "",
].join("\n");

describeWithServer("CSV import", (ctx) => {
  const { token, call, upload } = apiTokenCalls(ctx);

  async function finalStatus(tenant: string, jobGuid: string, timeout = 30_000) {
    let job: Record<string, unknown> = {};
    await vi.waitFor(
      async () => {
        job = (await call(tenant, `/api/Import/GetJobStatus?JobGuid=${jobGuid}`)).json;
        expect(["Completed", "Failed", "FailedPermanently"]).toContain(job.status);
      },
      { timeout, interval: 50 },
    );
    return job;
  }

  async function organisationId(tenant: string) {
    const org = await ctx()
      .database.db.selectFrom("organisations")
      .select("id")
      .where("tenant", "=", tenant)
      .executeTakeFirstOrThrow();
    return org.id;
  }

  async function snapshot(tenant: string) {
    const org = await organisationId(tenant);
    const lines = await sql`select c.code as client, i.code as item, s.name as salesperson,
        l.invoice_number, l.line_number, to_char(l.invoice_date, 'YYYY-MM-DD') as invoice_date,
        l.quantity::text as quantity, l.unit_price::text as unit_price, l.amount_cents::text as amount_cents,
        l.cost_cents::text as cost_cents, to_char(l.service_from, 'YYYY-MM-DD') as service_from,
        to_char(l.service_to, 'YYYY-MM-DD') as service_to, l.record_type
      from invoice_lines l join clients c on c.organisation_id = l.organisation_id and c.id = l.client_id
      join items i on i.organisation_id = l.organisation_id and i.id = l.item_id
      left join salespeople s on s.organisation_id = l.organisation_id and s.id = l.salesperson_id
      where l.organisation_id = ${org} order by l.invoice_number, l.line_number`.execute(ctx().database.db);
    const cube = await sql`select to_char(month, 'YYYY-MM') as month, c.code as client, i.code as item,
        quantity::text, revenue_cents::text, cost_cents::text
      from monthly_cube m join clients c on c.organisation_id = m.organisation_id and c.id = m.client_id
      join items i on i.organisation_id = m.organisation_id and i.id = m.item_id
      where m.organisation_id = ${org} order by month, client, item`.execute(ctx().database.db);
    return { lines: lines.rows as Record<string, unknown>[], cube: cube.rows as Record<string, unknown>[] };
  }

  /**
   * What `select` over invoice_lines must give after importing `files` in turn (a later file's line
   * replaces an earlier one's of the same key), read from the CSV text itself: the key, date,
   * client, item, salesperson, quantity and record type of each line.
   */
  function linesOfFiles(...files: string[]) {
    const byKey = new Map<string, Record<string, unknown>>();
    for (const file of files) {
      const [head, ...rows] = file.split("\n").filter(Boolean);
      const names = head!.split(",");
      const positions = new Map<string, number>();
      for (const row of rows) {
        const cell = Object.fromEntries(row.split(",").map((v, i) => [names[i], v]));
        const position = (positions.get(cell.InvoiceNumber!) ?? 0) + 1;
        positions.set(cell.InvoiceNumber!, position);
        const line = {
          invoice_number: cell.InvoiceNumber,
          line_number: Number(cell.LineNumber || position),
          invoice_date: cell.InvoiceDate,
          client: cell.ClientCode,
          item: cell.ItemCode,
          salesperson: cell.Salesperson || null,
          quantity: Number(cell.Quantity),
          record_type: cell.RecordType || "Actual",
        };
        byKey.set(`${line.invoice_number}\u0000${line.line_number}`, line);
      }
    }
    return [...byKey.values()].sort(
      (a, b) =>
        Buffer.compare(Buffer.from(`${a.invoice_number}`), Buffer.from(`${b.invoice_number}`)) ||
        (a.line_number as number) - (b.line_number as number),
    );
  }

  /** The organisation's lines by `select`, as `linesOfFiles` states them. */
  async function selectedLines(tenant: string) {
    const { lines } = await snapshot(tenant);
    return lines.map((l) => ({
      invoice_number: l.invoice_number,
      line_number: l.line_number,
      invoice_date: l.invoice_date,
      client: l.client,
      item: l.item,
      salesperson: l.salesperson,
      quantity: Number(l.quantity),
      record_type: l.record_type,
    }));
  }

  /**
   * The cube rule (docs/methodology.md, "Spreading") in SQL over the stored lines: an independent
   * statement of the cube that `CubeCellsBuilder` builds and imports change cell by cell.
   */
  async function cubeBySql(organisationId: string) {
    return ctx()
      .database.db.transaction()
      .execute(async (tx) => {
        await sql`create temporary table oracle_lines on commit drop as
          select record_type, invoice_date, client_id, item_id, coalesce(salesperson_id, 0) as salesperson_id,
            quantity, amount_cents, cost_cents, service_from, service_to
          from invoice_lines where organisation_id = ${organisationId}`.execute(tx);
        const cube = await sql`
          select to_char(month, 'YYYY-MM') as month, c.code as client, i.code as item,
                 sum(quantity)::numeric(18, 4)::text as quantity, sum(revenue_cents)::text as revenue_cents,
                 sum(cost_cents)::text as cost_cents
          from (
            select l.record_type, l.client_id, l.item_id, l.salesperson_id, l.quantity,
                   (date_trunc('month', coalesce(l.service_from, l.invoice_date)) + make_interval(months => k))::date as month,
                   l.amount_cents / n + case when k < abs(l.amount_cents % n) then sign(l.amount_cents) else 0 end as revenue_cents,
                   l.cost_cents / n + case when k < abs(l.cost_cents % n) then sign(l.cost_cents) else 0 end as cost_cents
            from oracle_lines l
            cross join lateral (
              select case when l.service_from is null then 1
                     else (extract(year from l.service_to) * 12 + extract(month from l.service_to))
                        - (extract(year from l.service_from) * 12 + extract(month from l.service_from)) + 1
                     end::int as n
            ) months
            cross join lateral generate_series(0, months.n - 1) as k
          ) spread
          join clients c on c.organisation_id = ${organisationId} and c.id = spread.client_id
          join items i on i.organisation_id = ${organisationId} and i.id = spread.item_id
          group by record_type, month, c.code, i.code, salesperson_id
          order by month, client, item`.execute(tx);
        return cube.rows as Record<string, unknown>[];
      });
  }

  it("imports a file as a job, spreads service periods over whole months and lists the actual months", async () => {
    const queued = await upload("imp", goodFile);
    expect(queued.status).toBe(200);
    expect(queued.json).toMatchObject({ status: "Pending", duplicate: false });
    const job = await finalStatus("imp", queued.json.jobGuid);
    expect(job).toMatchObject({ status: "Completed", rowsImported: 4, errors: [], errorCount: 0 });
    expect(await selectedLines("imp")).toEqual(linesOfFiles(goodFile));
    const { lines, cube } = await snapshot("imp");
    expect(lines).toContainEqual(
      expect.objectContaining({
        invoice_number: "INV-1",
        line_number: 2,
        quantity: "2.5000",
        amount_cents: "23751",
      }),
    );
    // A missing LineNumber is the line's position within its invoice.
    expect(lines).toContainEqual(
      expect.objectContaining({ invoice_number: "INV-3", line_number: 1, cost_cents: "18000" }),
    );
    expect(cube.filter((c) => c.item === "ANN")).toEqual([
      {
        month: "2025-05",
        client: "C002",
        item: "ANN",
        quantity: "1.0000",
        revenue_cents: "33334",
        cost_cents: "0",
      },
      {
        month: "2025-06",
        client: "C002",
        item: "ANN",
        quantity: "1.0000",
        revenue_cents: "33333",
        cost_cents: "0",
      },
      {
        month: "2025-07",
        client: "C002",
        item: "ANN",
        quantity: "1.0000",
        revenue_cents: "33333",
        cost_cents: "0",
      },
    ]);
    const periods = await call("imp", "/api/variance/VarianceOverview/ActualPeriods");
    // July holds spread revenue but nothing was invoiced there yet: not an actual period.
    expect(periods.json).toEqual([
      { yearNo: 2025, monthNo: 6 },
      { yearNo: 2025, monthNo: 5 },
    ]);
  });

  it("reads a file on a worker thread as on the server's thread, and builds the cube SQL builds", async () => {
    // Negative spread amounts and costs with leftover cents, beside the good file's lines.
    const content = [
      goodFile.trimEnd(),
      "2025-05-10,INV-4,1,C003,Initech,ANN,Annual plan,Subscription,1,,-100.01,-0.05,Raj,2025-05-01,2025-07-31,Actual,Recurring",
      "2025-06-10,INV-4,2,C003,Initech,PLN,Plan,Subscription,2,,0.02,,,2025-06-01,2026-05-31,Budget,",
      "",
    ].join("\n");
    const queued = await upload("onthread", content);
    expect(await finalStatus("onthread", queued.json.jobGuid)).toMatchObject({ status: "Completed" });

    await token("onworker");
    const db = ctx().database.db;
    const org = await db
      .selectFrom("organisations")
      .select("id")
      .where("tenant", "=", "onworker")
      .executeTakeFirstOrThrow();
    const file = join(mkdtempSync(join(tmpdir(), "varia-import-")), "lines.csv");
    writeFileSync(file, content);
    const outcome = await runImportJob(
      ctx().database,
      { organisation_id: org.id, id: randomUUID(), file_path: file },
      { workerThresholdBytes: 0 },
    );
    expect(outcome).toEqual({ status: "Completed", rows: 6, readWhileUploaded: false });
    const onWorker = await snapshot("onworker");
    expect(onWorker).toEqual(await snapshot("onthread"));
    // -100.01 over three months: the two leftover cents (and cost's) to the earliest months.
    expect(onWorker.cube.filter((c) => c.client === "C003" && c.item === "ANN")).toEqual(
      [
        ["2025-05", "-3334", "-2"],
        ["2025-06", "-3334", "-2"],
        ["2025-07", "-3333", "-1"],
      ].map(([month, revenue, cost]) => ({
        month,
        client: "C003",
        item: "ANN",
        quantity: "1.0000",
        revenue_cents: revenue,
        cost_cents: cost,
      })),
    );

    // The cube a first import builds in TypeScript is the one the SQL of cube rule builds.
    const sorted = (rows: Record<string, unknown>[]) => rows.map((r) => JSON.stringify(r)).sort();
    expect(sorted(await cubeBySql(org.id))).toEqual(sorted(onWorker.cube));
  });

  it("reads a large upload while it arrives, storing what a read of the stored file stores", async () => {
    // Over the 4 MB from which files are read on a thread of their own, and so read as they arrive.
    const rows = [header];
    for (let i = 0; i < 70_000; i++) {
      const client = i % 401;
      rows.push(
        `2025-${String((i % 12) + 1).padStart(2, "0")}-0${(i % 9) + 1},INV-${i >> 2},${(i % 4) + 1},C${client},"Café ${client}, Ltd",I${i % 23},Plan ${i % 23},${i % 7 ? "Subscription" : "Hourly"},${(i % 9) + 1},${i % 300}.25,,${i % 5}.10,${client % 4 ? `Rep ${client % 6}` : ""},${i % 11 ? "," : "2025-01-01,2025-12-31"},Actual,`,
      );
    }
    const content = `${rows.join("\n")}\n`;
    expect(Buffer.byteLength(content)).toBeGreaterThan(4 * 1024 * 1024);
    const takenBefore = uploadReadingsTaken();
    const queued = await upload("whileuploaded", content);
    // 70,000 lines: a minute and more on a machine as busy as the one the suite runs on.
    expect(await finalStatus("whileuploaded", queued.json.jobGuid, 120_000)).toMatchObject({
      status: "Completed",
      rowsImported: 70_000,
    });
    expect(uploadReadingsTaken()).toBe(takenBefore + 1);

    await token("fromdisk");
    const org = await ctx()
      .database.db.selectFrom("organisations")
      .select("id")
      .where("tenant", "=", "fromdisk")
      .executeTakeFirstOrThrow();
    const file = join(mkdtempSync(join(tmpdir(), "varia-import-")), "lines.csv");
    writeFileSync(file, content);
    const outcome = await runImportJob(ctx().database, {
      organisation_id: org.id,
      id: randomUUID(),
      file_path: file,
    });
    expect(outcome).toEqual({ status: "Completed", rows: 70_000, readWhileUploaded: false });
    const fromDisk = await snapshot("fromdisk");
    expect(fromDisk.lines).toHaveLength(70_000);
    expect(await snapshot("whileuploaded")).toEqual(fromDisk);
  }, 240_000);

  it("keeps the stored lines a file does not replace, in its lines and its cube", async () => {
    const first = await upload("partly", goodFile);
    await finalStatus("partly", first.json.jobGuid);
    // INV-2 line 1 replaced (another amount), INV-5 new; INV-1 and INV-3 stay as they were.
    const secondFile = [
      header,
      "2025-05-10,INV-2,1,C002,Globex,ANN,Annual plan,Subscription,1,,1500.00,,Raj,2025-05-01,2025-07-31,Actual,Recurring",
      "2025-07-01,INV-5,1,C004,Hooli,PRO,Pro plan,Subscription,3,20.00,,,Jane,,,Actual,",
      "",
    ].join("\n");
    const second = await upload("partly", secondFile);
    expect(await finalStatus("partly", second.json.jobGuid)).toMatchObject({ status: "Completed" });
    expect(await selectedLines("partly")).toEqual(linesOfFiles(goodFile, secondFile));
    const org = await ctx()
      .database.db.selectFrom("organisations")
      .select("id")
      .where("tenant", "=", "partly")
      .executeTakeFirstOrThrow();
    const { lines, cube } = await snapshot("partly");
    expect(lines.map((l) => `${l.invoice_number}/${l.line_number}/${l.amount_cents}`)).toEqual([
      "INV-1/1/10000",
      "INV-1/2/23751",
      "INV-2/1/150000",
      "INV-3/1/25000",
      "INV-5/1/6000",
    ]);
    const sorted = (rows: Record<string, unknown>[]) => rows.map((r) => JSON.stringify(r)).sort();
    expect(sorted(await cubeBySql(org.id))).toEqual(sorted(cube));
  });

  it("leaves the same data when the same file is imported twice", async () => {
    const first = await upload("twice", goodFile, { key: "one" });
    await finalStatus("twice", first.json.jobGuid);
    const before = await snapshot("twice");
    const second = await upload("twice", goodFile, { key: "two" });
    expect(second.json.duplicate).toBe(false);
    expect(await finalStatus("twice", second.json.jobGuid)).toMatchObject({ status: "Completed" });
    expect(await snapshot("twice")).toEqual(before);
    expect(await selectedLines("twice")).toEqual(linesOfFiles(goodFile));
  });

  it("treats a retried upload with the same key, or the same content without one, as a no-op", async () => {
    const first = await upload("retry", goodFile, { key: "k-1" });
    const again = await upload("retry", `${goodFile}\n`, { key: "k-1" });
    expect(again.json).toMatchObject({ jobGuid: first.json.jobGuid, duplicate: true });
    const plain = await upload("retry", goodFile);
    const plainAgain = await upload("retry", goodFile);
    expect(plainAgain.json).toMatchObject({ jobGuid: plain.json.jobGuid, duplicate: true });
  });

  it("rejects a file with bad rows whole, listing every bad row, and changes nothing", async () => {
    const first = await upload("bad", goodFile);
    await finalStatus("bad", first.json.jobGuid);
    const before = await snapshot("bad");
    const bad = [
      header,
      "2025-08-01,INV-9,1,C001,Acme Ltd,PRO,Pro plan,Subscription,5,20.00,,,,,,,",
      "2025-02-30,INV-9,2,C001,Acme Ltd,PRO,Pro plan,Subscription,5,20.00,,,,,,,",
      "2025-08-01,INV-9,3,C001,Acme Ltd,PRO,Pro plan,Gadget,5,20.00,,,,,,,",
      "2025-08-01,INV-9,4,,Acme Ltd,PRO,Pro plan,Subscription,five,20.00,,,,,,,",
      "",
    ].join("\n");
    const queued = await upload("bad", bad);
    const job = await finalStatus("bad", queued.json.jobGuid);
    expect(job.status).toBe("Failed");
    expect(job.errors).toEqual([
      { line: 3, column: "InvoiceDate", message: "'2025-02-30' is not a date (YYYY-MM-DD)" },
      { line: 4, column: "StockType", message: "'Gadget' is not Subscription, Product or Hourly" },
      { line: 5, column: "ClientCode", message: "is required" },
      { line: 5, column: "Quantity", message: "'five' is not a number with at most 4 decimals" },
    ]);
    expect(job.errorCount).toBe(4);
    expect(await snapshot("bad")).toEqual(before);
    expect(await selectedLines("bad")).toEqual(linesOfFiles(goodFile));
  });

  it("lists the organisation's latest jobs newest first, with who started them, to its own users only", async () => {
    const good = await upload("jobs", goodFile, { name: "may.csv" });
    await finalStatus("jobs", good.json.jobGuid);
    const bad = await upload(
      "jobs",
      `${header}\n2025-02-30,INV-9,1,C001,Acme Ltd,PRO,Pro plan,Subscription,1,,5,,,,,,\n`,
      {
        name: "june.csv",
      },
    );
    await finalStatus("jobs", bad.json.jobGuid);
    const admin = await ctx()
      .database.db.selectFrom("users")
      .innerJoin("organisations", "organisations.id", "users.organisation_id")
      .select("users.name")
      .where("tenant", "=", "jobs")
      .executeTakeFirstOrThrow();

    const listed = await call("jobs", "/api/Import/GetJobs");
    expect(listed.status).toBe(200);
    expect(listed.json).toEqual([
      expect.objectContaining({
        jobGuid: bad.json.jobGuid,
        kind: "Import",
        status: "Failed",
        fileName: "june.csv",
        errorCount: 1,
        rowsImported: null,
        startedBy: admin.name,
      }),
      expect.objectContaining({
        jobGuid: good.json.jobGuid,
        status: "Completed",
        fileName: "may.csv",
        rowsImported: 4,
        errorCount: 0,
        startedBy: admin.name,
      }),
    ]);
    // A job of a user deleted since says so; it was not the server's own.
    await ctx()
      .database.db.updateTable("import_jobs")
      .set({ user_id: randomUUID() })
      .where("id", "=", good.json.jobGuid)
      .execute();
    const afterDeletion = await call("jobs", "/api/Import/GetJobs");
    expect(afterDeletion.json[1]).toMatchObject({ jobGuid: good.json.jobGuid, startedBy: "A deleted user" });
    // The bad cells are the job's own call's to list, not the list's.
    expect(listed.json[0]).not.toHaveProperty("errors");
    expect(Date.parse(listed.json[0].createdAt)).toBeGreaterThanOrEqual(Date.parse(listed.json[1].createdAt));

    expect(
      (await call("jobs", "/api/Import/GetJobs?Limit=1")).json.map((j: { jobGuid: string }) => j.jobGuid),
    ).toEqual([bad.json.jobGuid]);
    const tooMany = await call("jobs", "/api/Import/GetJobs?Limit=101");
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.message).toContain("Limit");
    // Another organisation sees none of them.
    const theirs = await call("jobs-other", "/api/Import/GetJobs");
    expect(theirs.json.map((j: { jobGuid: string }) => j.jobGuid)).not.toContain(good.json.jobGuid);
  });

  it("refuses a workbook, a PDF or UTF-16 text named .csv at once, saying what it is, and queues nothing", async () => {
    const sent = async (bytes: Uint8Array, name: string) => {
      const form = new FormData();
      form.append("csv", new Blob([bytes], { type: "text/csv" }), name);
      return call("notcsv", "/api/import/upload", { method: "POST", body: form });
    };
    const cases: [Uint8Array, string][] = [
      [
        Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 6, 0]),
        "a spreadsheet workbook or other zip file (such as .xlsx or .ods)",
      ],
      [
        Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0]),
        "an Excel 97-2003 workbook (.xls)",
      ],
      [new TextEncoder().encode("%PDF-1.7\n%âãÏÓ\n"), "a PDF document"],
      [Uint8Array.from([0xff, 0xfe, 0x49, 0, 0x6e, 0]), "text in UTF-16"],
      [Uint8Array.from([0x1f, 0x8b, 8, 0]), "a gzip file"],
    ];
    for (const [bytes, kind] of cases) {
      const refused = await sent(bytes, "sales.csv");
      expect(refused.status, kind).toBe(400);
      expect(refused.json.message).toBe(
        `'sales.csv' is not a CSV file: it is ${kind}. Save it as CSV (comma-separated, UTF-8) and upload that`,
      );
      expect(refused.json.errors).toEqual([{ field: "csv", message: `is ${kind}, not a CSV file` }]);
    }
    expect((await call("notcsv", "/api/Import/GetJobs")).json).toEqual([]);
    // A CSV with a byte order mark and non-ASCII names is text.
    const text = await sent(
      new TextEncoder().encode(`\uFEFF${goodFile.replace("Acme Ltd", "Ácme Ltd")}`),
      "ok.csv",
    );
    expect(text.status).toBe(200);
  });

  it("names a missing required column on line 1", async () => {
    const queued = await upload("header", "InvoiceDate,InvoiceNumber,ClientCode,StockType,Quantity,Amount\n");
    const job = await finalStatus("header", queued.json.jobGuid);
    expect(job.status).toBe("Failed");
    expect(job.errors).toEqual([{ line: 1, column: "ItemCode", message: "required column is missing" }]);
  });

  it("reads a BOM, semicolons, any header case and quoted fields with newlines", async () => {
    const file =
      "\uFEFFinvoicedate;INVOICENUMBER;ClientCode;ClientName;ItemCode;StockType;Quantity;Amount\n" +
      '2025-03-01;X-1;C9;"Smith;\nSons";SUB;subscription;1;99.50\n';
    const queued = await upload("bom", file);
    expect(await finalStatus("bom", queued.json.jobGuid)).toMatchObject({
      status: "Completed",
      rowsImported: 1,
    });
    const client = await ctx()
      .database.db.selectFrom("clients")
      .innerJoin("organisations", "organisations.id", "clients.organisation_id")
      .select("clients.name")
      .where("tenant", "=", "bom")
      .where("code", "=", "C9")
      .executeTakeFirst();
    expect(client?.name).toBe("Smith;\nSons");
  });

  it("serves the template, refuses a non-multipart upload with 415 and keeps jobs to their organisation", async () => {
    const template = await call("imp", "/api/Import/Template");
    expect(template.status).toBe(200);
    expect(template.headers.get("content-disposition")).toContain("varia-import-template.csv");
    expect(template.text.split("\n")[0]).toBe(header);
    const json = await call("imp", "/api/import/upload", {
      method: "POST",
      body: JSON.stringify({ csv: "x" }),
      headers: { "content-type": "application/json" },
    });
    expect(json.status).toBe(415);
    const mine = await upload("imp", `${goodFile}\n\n`);
    const theirs = await call("twice", `/api/Import/GetJobStatus?JobGuid=${mine.json.jobGuid}`);
    expect(theirs.status).toBe(404);
    const badGuid = await call("imp", "/api/Import/GetJobStatus?JobGuid=not-a-guid");
    expect(badGuid.status).toBe(400);
    expect(badGuid.json.message).toContain("JobGuid");
  });

  it("exports the lines as CSV that a spreadsheet opens safely, filtered by month and client", async () => {
    const file = [
      header,
      '2025-04-01,E-1,1,C1,"=HYPERLINK(""http://x"")",PRO,+Pro,Subscription,1,,-12.50,,@boss,,,,',
      "2025-05-01,E-2,1,C2,Plain Co,PRO,+Pro,Subscription,2,,40.00,10.00,,,,,",
      "",
    ].join("\n");
    const queued = await upload("export", file);
    await finalStatus("export", queued.json.jobGuid);
    const all = await call("export", "/api/variance/Data/ExportRawData");
    expect(all.status).toBe(200);
    expect(all.headers.get("content-type")).toContain("text/csv");
    const lines = all.text.trim().split("\n");
    expect(lines[0]).toBe(
      "InvoiceDate,InvoiceNumber,LineNumber,ClientCode,ClientName,ItemCode,ItemName,StockType,Category,Salesperson,Quantity,UnitPrice,Amount,Cost,Margin,ServiceFrom,ServiceTo,RecordType",
    );
    expect(lines[1]).toBe(
      `2025-04-01,E-1,1,C1,"'=HYPERLINK(""http://x"")",PRO,'+Pro,Subscription,Recurring,'@boss,1.0000,,-12.50,0.00,-12.50,,,Actual`,
    );
    expect(lines[2]).toBe(
      "2025-05-01,E-2,1,C2,Plain Co,PRO,'+Pro,Subscription,Recurring,,2.0000,,40.00,10.00,30.00,,,Actual",
    );
    const may = await call("export", "/api/variance/Data/ExportRawData?dateFrom=2025-05&dateTo=2025-05");
    expect(may.text.trim().split("\n")).toHaveLength(2);
    const client = await ctx()
      .database.db.selectFrom("clients")
      .innerJoin("organisations", "organisations.id", "clients.organisation_id")
      .select("clients.id")
      .where("organisations.tenant", "=", "export")
      .where("clients.code", "=", "C1")
      .executeTakeFirstOrThrow();
    const one = await call("export", `/api/variance/Data/ExportRawData?clientID=${client.id}`);
    expect(one.text.trim().split("\n").slice(1)).toEqual([lines[1]]);
    const bad = await call("export", "/api/variance/Data/ExportRawData?dateFrom=May");
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain("dateFrom");
  });

  it("takes a backup before every import, and downloads and restores one as a job", async () => {
    const first = await upload("backup", goodFile, { name: "first.csv" });
    await finalStatus("backup", first.json.jobGuid);
    const afterFirst = await snapshot("backup");
    const changed = goodFile.replace("1000.00", "1200.00").replace("INV-3,,C002", "INV-3,,C003");
    const second = await upload("backup", changed, { name: "second.csv" });
    await finalStatus("backup", second.json.jobGuid);
    expect(await snapshot("backup")).not.toEqual(afterFirst);

    const list = await call("backup", "/api/Backup/BackupList");
    // Each names the file of the import it was taken before.
    expect(
      list.json.map((b: { reason: string; lineCount: number; importFileName: string | null }) => [
        b.reason,
        b.lineCount,
        b.importFileName,
      ]),
    ).toEqual([
      ["BeforeImport", 4, "second.csv"],
      ["BeforeImport", 0, "first.csv"],
    ]);
    const backupID = list.json[0].backupID as string;
    const file = await localFetch(`${ctx().tenantUrl("backup")}/api/Backup/Download?backupID=${backupID}`, {
      headers: { authorization: `Bearer ${await token("backup")}` },
    });
    expect(file.headers.get("content-disposition")).toMatch(/varia-backup-backup-.*\.json\.gz/);
    const content = JSON.parse(gunzipSync(Buffer.from(await file.arrayBuffer())).toString("utf8"));
    // An undo record: the four lines the second import replaced, as they were.
    expect(content).toMatchObject({
      format: "varia-backup/3",
      kind: "UndoRecord",
      undoesImport: second.json.jobGuid,
    });
    expect(content.invoiceLines).toHaveLength(4);
    expect(
      content.invoiceLines.find((l: { invoice_number: string }) => l.invoice_number === "INV-2"),
    ).toMatchObject({
      amount_cents: "100000",
    });

    const restore = await call("backup", `/api/Backup/Restore?backupID=${backupID}`, { method: "POST" });
    expect(restore.status).toBe(200);
    const restored = await finalStatus("backup", restore.json.jobGuid);
    expect(restored.message).toBeNull();
    expect(restored).toMatchObject({ status: "Completed", rowsImported: 4 });
    // The job names the backup as a person knows it: when it was taken, and why.
    const chosen = (await call("backup", "/api/Backup/BackupList")).json.find(
      (b: { backupID: string }) => b.backupID === backupID,
    );
    expect(restored.fileName).toBe(
      `the backup of ${chosen.createdAt.slice(0, 10)} ${chosen.createdAt.slice(11, 19)} UTC (before the import of ${chosen.importFileName})`,
    );
    expect(await snapshot("backup")).toEqual(afterFirst);
    const reasons = (await call("backup", "/api/Backup/BackupList")).json.map(
      (b: { reason: string }) => b.reason,
    );
    expect(reasons[0]).toBe("BeforeRestore");
    const onDemand = await call("backup", "/api/Backup/Create", { method: "POST" });
    expect(onDemand.json).toMatchObject({ reason: "OnDemand", lineCount: 4, importFileName: null });
    // Answered as the list shows it, to the millisecond the database stamped.
    expect((await call("backup", "/api/Backup/BackupList")).json[0]).toEqual(onDemand.json);

    // Deleting a backup takes it (and its stored lines) out of the list; a second delete is a 404.
    const removeOnDemand = () =>
      call("backup", `/api/Backup/Delete?backupID=${onDemand.json.backupID}`, { method: "DELETE" });
    expect((await removeOnDemand()).status).toBeLessThan(300);
    const left = (await call("backup", "/api/Backup/BackupList")).json.map(
      (b: { backupID: string }) => b.backupID,
    );
    expect(left).toHaveLength(reasons.length);
    expect(left).not.toContain(onDemand.json.backupID);
    expect((await removeOnDemand()).status).toBe(404);
  });

  it("imports the QuickBooks sample through the converter", async () => {
    const fixtures = join(import.meta.dirname, "fixtures", "quickbooks-sample");
    const converted = convertQuickBooks({
      invoices: readFileSync(join(fixtures, "invoice_data.csv"), "utf8"),
      invoiceLines: readFileSync(join(fixtures, "invoice_line_data.csv"), "utf8"),
      items: readFileSync(join(fixtures, "item_data.csv"), "utf8"),
    });
    const queued = await upload("qb", converted.csv, { name: "quickbooks.csv" });
    expect(await finalStatus("qb", queued.json.jobGuid)).toMatchObject({
      status: "Completed",
      rowsImported: converted.lineCount,
    });
    const items = await ctx()
      .database.db.selectFrom("items")
      .innerJoin("organisations", "organisations.id", "items.organisation_id")
      .select(["items.code", "items.stock_type", "items.category"])
      .where("organisations.tenant", "=", "qb")
      .orderBy("items.code")
      .execute();
    expect(items).toContainEqual({ code: "SaaS-Pro", stock_type: "Subscription", category: "Recurring" });
    expect(items).toContainEqual({ code: "ZS-LD-01", stock_type: "Product", category: "Adhoc" });
  });
  it("shows a client and an item no file named by their codes, and keeps their stored names empty", async () => {
    const file = `${header}\n2025-05-01,N-1,1,NO-NAME,,BARE,,Subscription,1,,120.00,,,,,Actual,Recurring\n2025-06-01,N-2,1,NO-NAME,,BARE,,Subscription,1,,120.00,,,,,Actual,Recurring\n`;
    const queued = await upload("nameless", file);
    expect(await finalStatus("nameless", queued.json.jobGuid)).toMatchObject({ status: "Completed" });
    const client = (
      await call("nameless", "/api/variance/Lookup/GetClientList", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ search: "no-name", startRow: 1, rowLimit: 10 }),
      })
    ).json.rows;
    expect(client).toEqual([{ clientID: expect.any(String), code: "NO-NAME", name: "NO-NAME" }]);
    const item = (
      await call("nameless", "/api/variance/Lookup/GetSkuList", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ search: "bare", startRow: 1, rowLimit: 10 }),
      })
    ).json.rows;
    expect(item).toMatchObject([{ code: "BARE", name: "BARE" }]);
    // Level 3's detail (what says whether the client exists at all) and level 4's lines.
    const months = "dateFrom=2025-05&dateTo=2025-06";
    const detail = await call(
      "nameless",
      `/api/variance/Client/SpecificClientDetail?${months}&clientID=${client[0].clientID}`,
    );
    expect(detail.json).toMatchObject({ clientCode: "NO-NAME", clientName: "NO-NAME" });
    const lines = await call(
      "nameless",
      `/api/variance/VarianceOverview/TableInvoiceData?${months}&startRow=0&rowLimit=10`,
    );
    expect(lines.json.rows).toEqual([
      expect.objectContaining({ clientName: "NO-NAME", itemName: "BARE" }),
      expect.objectContaining({ clientName: "NO-NAME", itemName: "BARE" }),
    ]);
    // Stored empty: the raw export writes what was imported, and a later file can name it.
    const exported = await call("nameless", `/api/variance/Data/ExportRawData?${months}`);
    expect(exported.text.split("\n")[1]).toContain(",NO-NAME,,BARE,,");
  });

  it("rebuilds a changed cube and its snapshot from the stored lines with the RebuildCube job", async () => {
    const queued = await upload("rebuild", goodFile);
    expect(await finalStatus("rebuild", queued.json.jobGuid)).toMatchObject({ status: "Completed" });
    const org = await organisationId("rebuild");
    const db = ctx().database.db;
    const sorted = (rows: Record<string, unknown>[]) => rows.map((r) => JSON.stringify(r)).sort();
    const variance = () =>
      call("rebuild", "/api/variance/DashboardAlpha/GetVariance?dateFrom=2025-05&dateTo=2025-06");
    const before = { cube: (await snapshot("rebuild")).cube, variance: await variance() };
    expect(before.variance.status).toBe(200);
    expect(sorted(before.cube)).toEqual(sorted(await cubeBySql(org)));

    // A cell changed by hand, and the snapshot gone: the cube no longer follows from the lines.
    await sql`update monthly_cube set revenue_cents = revenue_cents + 99999
      where organisation_id = ${org} and month = '2025-06-01'`.execute(db);
    await sql`delete from cube_snapshots where organisation_id = ${org}`.execute(db);
    expect(sorted((await snapshot("rebuild")).cube)).not.toEqual(sorted(before.cube));

    const refused = await call("rebuild", "/api/System/AddJob", {
      method: "POST",
      body: JSON.stringify({ job: "Reindex" }),
      headers: { "content-type": "application/json" },
    });
    expect(refused.status).toBe(400);
    expect(refused.json.errors.map((e: { field: string }) => e.field)).toEqual(["job"]);

    const added = await call("rebuild", "/api/System/AddJob", {
      method: "POST",
      body: JSON.stringify({ job: "RebuildCube" }),
      headers: { "content-type": "application/json" },
    });
    expect(added.status).toBe(200);
    const job = await finalStatus("rebuild", added.json.jobGuid);
    expect(job).toMatchObject({ status: "Completed", fileName: "Rebuild the cube", rowsImported: 4 });
    const row = await db
      .selectFrom("import_jobs")
      .select("kind")
      .where("organisation_id", "=", org)
      .where("id", "=", added.json.jobGuid)
      .executeTakeFirstOrThrow();
    expect(row.kind).toBe("RebuildCube");

    // The cube is the one the lines make again, and the snapshot holds its cells as of the job.
    expect((await snapshot("rebuild")).cube).toEqual(before.cube);
    expect(sorted((await snapshot("rebuild")).cube)).toEqual(sorted(await cubeBySql(org)));
    const stored = await db
      .selectFrom("cube_snapshots")
      .select(["data", "data_version"])
      .where("organisation_id", "=", org)
      .executeTakeFirstOrThrow();
    expect(stored.data_version).toBe(await cellsVersion(db, org));
    const cells = decodeCubeSnapshot(stored.data);
    const rows = await sql<{ cell: string }>`select concat_ws(',',
        extract(year from month)::int4 * 12 + extract(month from month)::int4 - 1,
        client_id, item_id, salesperson_id, revenue_cents, cost_cents, line_count) as cell
      from monthly_cube where organisation_id = ${org}`.execute(db);
    const fromSnapshot = [...cells.month].map((month, i) =>
      [
        month,
        cells.clientId[i],
        cells.itemId[i],
        cells.salespersonId[i],
        cells.revenue[i],
        cells.cost[i],
        cells.lines[i],
      ].join(),
    );
    expect(fromSnapshot.sort()).toEqual(rows.rows.map((r) => r.cell).sort());

    const after = await variance();
    expect(after.json).toEqual(before.variance.json);
  });
});
