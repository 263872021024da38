// Import benchmark (issue 3): a generated CSV of BENCH_LINES invoice lines (default 1,000,000,
// about 100 MB) uploaded end to end (upload to Completed, cube rebuilt), against a bare COPY of the
// same file into the same kind of database, on PGlite (on disk) and on PostgreSQL when
// TEST_DATABASE_URL is set. Peak resident memory of the process (which holds the server) is sampled.
// Run: npm run bench -w @varia/server  (BENCH_LINES=100000 for a quick run)
import { randomBytes } from "node:crypto";
import { chmodSync, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { createOrganisation, createTokenForUser } from "../src/admin/organisations";
import { loadConfig } from "../src/config";
import { openDatabase } from "../src/db/database";
import { startServer } from "../src/server";

const lines = Number(process.env.BENCH_LINES ?? 1_000_000);
const work = mkdtempSync(join(tmpdir(), "varia-bench-"));
// The PostgreSQL server process reads the file for its COPY.
chmodSync(work, 0o755);
const file = join(work, "lines.csv");

async function generate() {
  const out = createWriteStream(file);
  const header =
    "InvoiceDate,InvoiceNumber,LineNumber,ClientCode,ClientName,ItemCode,ItemName,StockType,Quantity,UnitPrice,Amount,Cost,Salesperson,ServiceFrom,ServiceTo,RecordType,Category\n";
  out.write(header);
  for (let i = 0; i < lines; i++) {
    const month = (i % 36) + 1;
    const year = 2023 + Math.floor((month - 1) / 12);
    const m = String(((month - 1) % 12) + 1).padStart(2, "0");
    const client = i % 5000;
    const row = `${year}-${m}-01,INV-${i >> 2},${(i % 4) + 1},C${client},Client ${client},I${i % 60},Item ${i % 60},${i % 7 === 0 ? "Hourly" : "Subscription"},${(i % 9) + 1},${(i % 200) + 10}.5000,,${(i % 50) + 1}.00,Rep ${client % 8},,,Actual,Recurring\n`;
    if (!out.write(row)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(resolve));
}

const copyTable = `create table bench_copy (invoice_date text, invoice_number text, line_number text, client_code text,
  client_name text, item_code text, item_name text, stock_type text, quantity text, unit_price text, amount text,
  cost text, salesperson text, service_from text, service_to text, record_type text, category text)`;

async function copyPglite(): Promise<number> {
  const dir = join(work, "copy-pglite");
  const db = new PGlite(dir);
  await db.exec(copyTable);
  const blob = new Blob([readFileSync(file)]);
  const started = performance.now();
  await db.query("copy bench_copy from '/dev/blob' with (format csv, header)", [], { blob });
  const ms = performance.now() - started;
  await db.close();
  return ms;
}

async function copyPostgres(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(copyTable);
  const started = performance.now();
  await client.query(`copy bench_copy from '${file}' with (format csv, header)`);
  const ms = performance.now() - started;
  await client.end();
  return ms;
}

async function importEndToEnd(kind: "pglite" | "postgres", url?: string) {
  const dataDir = join(work, `server-${kind}`);
  const database =
    kind === "postgres"
      ? await openDatabase({ kind, url: url! })
      : await openDatabase({ kind, dataDir: join(dataDir, "data") });
  const config = loadConfig({ PORT: "0", HOST: "127.0.0.1", VARIA_DATA_DIR: dataDir, LOG_LEVEL: "silent" });
  const server = await startServer(config, { database, logger: false });
  await createOrganisation(database.db, {
    tenant: "bench",
    name: "Bench",
    adminEmail: "a@bench.example.com",
    adminPassword: "a long bench password",
  });
  const { token } = await createTokenForUser(database.db, {
    tenant: "bench",
    email: "a@bench.example.com",
    name: "b",
  });
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 100);
  const headers = { authorization: `Bearer ${token}` };
  const started = performance.now();
  const form = new FormData();
  form.append("csv", await (await import("node:fs")).openAsBlob(file), "lines.csv");
  const queued = (await (
    await fetch(`${server.url}/api/import/upload`, { method: "POST", body: form, headers })
  ).json()) as {
    jobGuid: string;
  };
  let status = "";
  while (!["Completed", "Failed", "FailedPermanently"].includes(status)) {
    const job = (await (
      await fetch(`${server.url}/api/Import/GetJobStatus?JobGuid=${queued.jobGuid}`, { headers })
    ).json()) as { status: string; message?: string };
    status = job.status;
    if (status === "Failed" || status === "FailedPermanently")
      throw new Error(`import ${status}: ${job.message}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const ms = performance.now() - started;
  clearInterval(sampler);
  await server.close();
  await database.close();
  return { ms, peakRss: peak };
}

const fmt = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mib = (b: number) => `${Math.round(b / 1024 / 1024)} MiB`;

await generate();
console.log(`${lines} lines, ${mib(statSync(file).size)} CSV`);
if (!process.env.BENCH_SKIP_PGLITE) {
  const copyLite = await copyPglite();
  const importLite = await importEndToEnd("pglite");
  console.log(
    `PGlite: COPY ${fmt(copyLite)}; import ${fmt(importLite.ms)} (${(importLite.ms / copyLite).toFixed(1)}x COPY); peak RSS ${mib(importLite.peakRss)}`,
  );
}
const base = process.env.TEST_DATABASE_URL;
if (base) {
  const name = `varia_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = Object.assign(new URL(base), { pathname: `/${name}` }).toString();
  const copyPg = await copyPostgres(url);
  await (async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query("drop table bench_copy");
    await c.end();
  })();
  const importPg = await importEndToEnd("postgres", url);
  console.log(
    `PostgreSQL: COPY ${fmt(copyPg)}; import ${fmt(importPg.ms)} (${(importPg.ms / copyPg).toFixed(1)}x COPY); peak RSS ${mib(importPg.peakRss)}`,
  );
  await admin.query(`drop database ${name} with (force)`);
  await admin.end();
}
rmSync(work, { recursive: true, force: true });
