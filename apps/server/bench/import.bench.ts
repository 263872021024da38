// Import benchmark (issue 3): a generated CSV of BENCH_LINES invoice lines (default 1,000,000,
// about 100 MB) uploaded end to end (upload to Completed, cube rebuilt), against a bare COPY of the
// same file into the same kind of database, on PGlite (on disk) and on PostgreSQL when
// TEST_DATABASE_URL is set, BENCH_RUNS times each (default 3; medians reported). The server runs as a
// process of its own, measured at rest, with its peak resident memory. Then, on the same server
// (docs/storage.md: work proportional to the change): the first level-1 call after the import; an
// import of 1,000 new lines into the million-line organisation, and the first level-1 call after it;
// the first level-1 call after a restart; and the same 1,000 lines into an empty organisation (a
// server of its own), for the ratio.
// Run: npm run bench -w @varia/server  (BENCH_LINES=100000 for a quick run)

import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  createReadStream,
  createWriteStream,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { request as httpRequest } from "node:http";
import { type AddressInfo, createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { createOrganisation, createTokenForUser } from "../src/admin/organisations";
import { openDatabase } from "../src/db/database";
import { migrate } from "../src/db/migrate";

const lines = Number(process.env.BENCH_LINES ?? 1_000_000);
const work = mkdtempSync(join(tmpdir(), "varia-bench-"));
// The PostgreSQL server process reads the file for its COPY.
chmodSync(work, 0o755);
const file = join(work, "lines.csv");
/** 1,000 lines the big file does not have (invoices of their own), of its clients and items. */
const smallFile = join(work, "small.csv");
const smallLines = 1000;

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
  const small = [header.trimEnd()];
  for (let i = 0; i < smallLines; i++)
    small.push(
      `2025-12-15,NEW-${i >> 2},${(i % 4) + 1},C${i % 5000},Client ${i % 5000},I${i % 60},Item ${i % 60},Subscription,${(i % 9) + 1},${(i % 200) + 10}.5000,,1.00,Rep ${i % 8},,,Actual,Recurring`,
    );
  writeFileSync(smallFile, `${small.join("\n")}\n`);
}

/** A bare COPY: its time and the CPU it took; on PostgreSQL also one fed by a client (`fromClient`). */
interface Copy {
  ms: number;
  cpuMs: number;
  fromClient?: { ms: number; cpuMs: number };
}

const copyTable = `create table bench_copy (invoice_date text, invoice_number text, line_number text, client_code text,
  client_name text, item_code text, item_name text, stock_type text, quantity text, unit_price text, amount text,
  cost text, salesperson text, service_from text, service_to text, record_type text, category text)`;

async function copyPglite(run: number): Promise<Copy> {
  const dir = join(work, `copy-pglite-${run}`);
  const db = new PGlite(dir);
  await db.exec(copyTable);
  const blob = new Blob([readFileSync(file)]);
  const cpu = process.cpuUsage();
  const started = performance.now();
  await db.query("copy bench_copy from '/dev/blob' with (format csv, header)", [], { blob });
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  await db.close();
  return { ms, cpuMs: (used.user + used.system) / 1000 };
}

async function copyPostgres(url: string): Promise<Copy> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(copyTable);
  let ticks = postgresTicks();
  let started = performance.now();
  await client.query(`copy bench_copy from '${file}' with (format csv, header)`);
  const ms = performance.now() - started;
  const cpuMs = (postgresTicks() - ticks) * msPerTick;
  // The same COPY with the file sent by a client (as psql's \copy sends it), into a fresh table.
  await client.query("drop table bench_copy");
  await client.query(copyTable);
  ticks = postgresTicks();
  const cpu = process.cpuUsage();
  started = performance.now();
  await pipeline(
    createReadStream(file, { highWaterMark: 1 << 20 }),
    client.query(copyFrom("copy bench_copy from stdin with (format csv, header)")),
  );
  const used = process.cpuUsage(cpu);
  const fromClient = {
    ms: performance.now() - started,
    cpuMs: (postgresTicks() - ticks) * msPerTick + (used.user + used.system) / 1000,
  };
  await client.end();
  return { ms, cpuMs, fromClient };
}

/** A free TCP port for the server process. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Peak and current resident memory of a process (Linux), in bytes. */
function memoryOf(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { peak: kib("VmHWM"), current: kib("VmRSS") };
}

/**
 * Uploads the file as multipart part `csv` with node:http, the file streamed from disk between a
 * prefix and a suffix: the least CPU a client can spend on it (the bare COPY has no client at all).
 */
async function uploadFile(url: string, token: string, path = file): Promise<unknown> {
  const boundary = `----varia-bench-${randomBytes(8).toString("hex")}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="csv"; filename="lines.csv"\r\n` +
      "Content-Type: text/csv\r\n\r\n",
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + statSync(path).size + tail.length;
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": `multipart/form-data; boundary=${boundary}`,
          "content-length": length,
        },
      },
      async (response) => {
        const chunks: Buffer[] = [];
        for await (const chunk of response) chunks.push(chunk as Buffer);
        const text = Buffer.concat(chunks).toString("utf8");
        if (response.statusCode !== 200) reject(new Error(`upload answered ${response.statusCode}: ${text}`));
        else resolve(JSON.parse(text));
      },
    );
    request.on("error", reject);
    request.write(head);
    const body = createReadStream(path, { highWaterMark: 1 << 20 });
    body.on("error", reject);
    body.on("end", () => request.end(tail));
    body.pipe(request, { end: false });
  });
}

/** Milliseconds in a clock tick of /proc (USER_HZ, 100 on Linux). */
const msPerTick = 10;

/** CPU time of every PostgreSQL server process of this machine (Linux), in clock ticks. */
function postgresTicks(): number {
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (!stat.includes("(postgres)")) continue;
      const fields = stat.split(") ")[1]!.split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks;
}

/** CPU time of a process (Linux), in clock ticks. */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * Waits until a just-started server is at rest (under 5% of a core for a quarter of a second, at
 * most 20 s): an import is measured on a running server, not on one still starting (compiling,
 * warming up its reader thread).
 */
async function untilIdle(pid: number) {
  const deadline = Date.now() + 20_000;
  for (let before = cpuTicks(pid); Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = cpuTicks(pid);
    if (now - before <= 1) return;
    before = now;
  }
}

/** A migrated database with the organisation `bench` and an API token of its admin. */
async function benchOrganisation(kind: "pglite" | "postgres", dataDir: string, url?: string) {
  const database =
    kind === "postgres"
      ? await openDatabase({ kind, url: url! })
      : await openDatabase({ kind, dataDir: join(dataDir, "data") });
  await migrate(database);
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
  await database.close();
  return token;
}

/**
 * The server runs as a process of its own (`varia-server start`), as in production, so its peak
 * resident memory (the kernel's VmHWM, worker threads included) is the server's alone.
 */
async function importEndToEnd(kind: "pglite" | "postgres", run: number, url?: string) {
  const dataDir = join(work, `server-${kind}-${run}`);
  const token = await benchOrganisation(kind, dataDir, url);

  let { server, base } = await startBenchServer(kind, dataDir, url);
  const { current: idle, peak: startPeak } = memoryOf(server.pid!);
  // The peak from here on is the import's (Linux: 5 resets VmHWM to the current resident set).
  writeFileSync(`/proc/${server.pid}/clear_refs`, "5");
  const cpuBefore = { server: cpuTicks(server.pid!), client: process.cpuUsage(), postgres: postgresTicks() };
  const started = performance.now();
  const { uploadMs } = await importThrough(base, token, file);
  const ms = performance.now() - started;
  const client = process.cpuUsage(cpuBefore.client);
  const cpu = {
    serverMs: (cpuTicks(server.pid!) - cpuBefore.server) * msPerTick,
    clientMs: (client.user + client.system) / 1000,
    postgresMs: kind === "postgres" ? (postgresTicks() - cpuBefore.postgres) * msPerTick : 0,
  };
  const { peak } = memoryOf(server.pid!);
  // Work proportional to the change, on the same server.
  const level1AfterImportMs = await level1(base, token);
  const smallStarted = performance.now();
  await importThrough(base, token, smallFile);
  const smallMs = performance.now() - smallStarted;
  const level1AfterSmallMs = await level1(base, token);
  await stopServer(server);
  ({ server, base } = await startBenchServer(kind, dataDir, url));
  const level1AfterRestartMs = await level1(base, token);
  const { peak: finalPeak } = memoryOf(server.pid!);
  await stopServer(server);
  return {
    ms,
    uploadMs,
    peakRss: Math.max(peak, finalPeak),
    idleRss: idle,
    startPeakRss: startPeak,
    cpu,
    level1AfterImportMs,
    smallMs,
    level1AfterSmallMs,
    level1AfterRestartMs,
  };
}

/** Imports `path` through the API and waits for the job to complete; the upload's time. */
/**
 * fetch, tried once more after a connection reset: a kept-alive connection the server closes as it
 * is reused resets (a client's race, not the server's failure; a server gone refuses the retry).
 */
async function fetchOnce(url: string, init: RequestInit) {
  try {
    return await fetch(url, init);
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code !== "ECONNRESET") throw error;
    console.error(`(a connection reset on ${new URL(url).pathname}: asked again)`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    return fetch(url, init);
  }
}

async function importThrough(base: string, token: string, path: string) {
  const headers = { authorization: `Bearer ${token}` };
  const started = performance.now();
  const queued = (await uploadFile(`${base}/api/import/upload`, token, path)) as { jobGuid: string };
  const uploadMs = performance.now() - started;
  let status = "";
  while (!["Completed", "Failed", "FailedPermanently"].includes(status)) {
    const job = (await (
      await fetchOnce(`${base}/api/Import/GetJobStatus?JobGuid=${queued.jobGuid}`, { headers })
    ).json()) as {
      status: string;
      message?: string;
    };
    status = job.status;
    if (status === "Failed" || status === "FailedPermanently")
      throw new Error(`import ${status}: ${job.message}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { uploadMs };
}

/** The time of one level-1 call (WaterfallChart over the last year). */
async function level1(base: string, token: string) {
  const started = performance.now();
  const response = await fetchOnce(
    `${base}/api/variance/VarianceOverview/WaterfallChart?DataType=Revenue&DateFrom=2025-01&DateTo=2025-12&RecordTypeFrom=Actual&RecordTypeTo=Actual&StockType=&PeriodFrom=2025-01&PeriodTo=2025-12&RecordType=Actual`,
    { headers: { authorization: `Bearer ${token}` } },
  );
  await response.text();
  if (!response.ok) throw new Error(`WaterfallChart answered ${response.status}`);
  return performance.now() - started;
}

async function stopServer(server: ReturnType<typeof spawn>) {
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
}

/** Starts `varia-server start` on a data folder, ready and at rest. */
async function startBenchServer(kind: "pglite" | "postgres", dataDir: string, url?: string) {
  const port = await freePort();
  const server = spawn(process.execPath, ["--import", "tsx", "src/bin.ts", "start", "--port", String(port)], {
    cwd: join(import.meta.dirname, ".."),
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      VARIA_DATA_DIR: dataDir,
      DATABASE_URL: kind === "postgres" ? url : "",
      VARIA_SEED_DEMO: "0",
      // Called at 127.0.0.1, a host that names no tenant: the bench tenant's token counts there.
      VARIA_DEFAULT_TENANT: "bench",
      LOG_LEVEL: "warn",
    },
    // Its log (warnings and errors) beside its data, shown if a call fails.
    stdio: ["ignore", openSync(join(dataDir, "..", `server-${kind}.log`), "a"), "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let ready = false; !ready; ) {
    ready = await fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await untilIdle(server.pid!);
  return { server, base };
}

/** The 1,000 lines into an empty organisation: a server of its own, as the first import's. */
async function smallIntoEmpty(kind: "pglite" | "postgres", url?: string) {
  const dataDir = join(work, `server-${kind}-empty`);
  const token = await benchOrganisation(kind, dataDir, url);
  const { server, base } = await startBenchServer(kind, dataDir, url);
  const started = performance.now();
  await importThrough(base, token, smallFile);
  const ms = performance.now() - started;
  await stopServer(server);
  return ms;
}

const fmt = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mib = (b: number) => `${Math.round(b / 1024 / 1024)} MiB`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

type ImportResult = Awaited<ReturnType<typeof importEndToEnd>>;

/** Each run: a bare COPY, then the import; the medians, and every run's figures. */
function report(name: string, copyRuns: Copy[], imports: ImportResult[], emptyMs: number) {
  const smallMs = median(imports.map((r) => r.smallMs));
  console.log(
    `${name}: ${smallLines} new lines into the ${lines}-line organisation ${(smallMs / 1000).toFixed(2)} s, into an empty one ` +
      `${(emptyMs / 1000).toFixed(2)} s (${(smallMs / emptyMs).toFixed(1)}x); first level-1 call after the big import ` +
      `${fmt(median(imports.map((r) => r.level1AfterImportMs)))}, after the small one ${fmt(median(imports.map((r) => r.level1AfterSmallMs)))}, ` +
      `after a restart ${fmt(median(imports.map((r) => r.level1AfterRestartMs)))}; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
  );
  const copies = copyRuns.map((c) => c.ms);
  const copyMs = median(copies);
  const importMs = median(imports.map((r) => r.ms));
  console.log(
    `${name}: COPY ${fmt(copyMs)}; import ${fmt(importMs)} (upload ${fmt(median(imports.map((r) => r.uploadMs)))}), ` +
      `${(importMs / copyMs).toFixed(1)}x COPY (medians of ${copies.length}); server peak RSS in the import ` +
      `${mib(Math.max(...imports.map((r) => r.peakRss)))} (idle before it ${mib(median(imports.map((r) => r.idleRss)))}, ` +
      `peak while starting ${mib(Math.max(...imports.map((r) => r.startPeakRss)))})`,
  );
  const fed = copyRuns.flatMap((c) => (c.fromClient ? [c.fromClient.ms] : []));
  if (fed.length)
    console.log(
      `  the same COPY fed by a client (COPY FROM STDIN): ${fmt(median(fed))}; the import is ${(importMs / median(fed)).toFixed(1)}x of it`,
    );
  for (const [i, copy] of copies.entries()) {
    const { ms, cpu } = imports[i]!;
    const total = cpu.serverMs + cpu.clientMs + cpu.postgresMs;
    console.log(
      `  run ${i + 1}: COPY ${fmt(copy)} (CPU ${fmt(copyRuns[i]!.cpuMs)}), import ${fmt(ms)}, ${(ms / copy).toFixed(1)}x; import CPU ${fmt(total)} ` +
        `(server ${fmt(cpu.serverMs)}, uploading client ${fmt(cpu.clientMs)}, PostgreSQL ${fmt(cpu.postgresMs)}): ` +
        `at least ${fmt(total / 2)} on two cores`,
    );
  }
}

/** A fresh PostgreSQL database for one measurement. */
async function withDatabase<T>(base: string, fn: (url: string) => Promise<T>): Promise<T> {
  const name = `varia_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  try {
    return await fn(Object.assign(new URL(base), { pathname: `/${name}` }).toString());
  } finally {
    await admin.query(`drop database ${name} with (force)`);
    await admin.end();
  }
}

process.on("uncaughtException", (error) => {
  for (const name of readdirSync(work).filter((f) => f.endsWith(".log")))
    console.error(`${name}:\n${readFileSync(join(work, name), "utf8").slice(-4000)}`);
  console.error(error);
  process.exit(1);
});

const runs = Number(process.env.BENCH_RUNS ?? 3);
await generate();
console.log(`${lines} lines, ${mib(statSync(file).size)} CSV, ${runs} runs`);
if (!process.env.BENCH_SKIP_PGLITE) {
  const copies: Copy[] = [];
  const imports: ImportResult[] = [];
  for (let run = 0; run < runs; run++) {
    copies.push(await copyPglite(run));
    imports.push(await importEndToEnd("pglite", run));
  }
  report("PGlite", copies, imports, await smallIntoEmpty("pglite"));
}
const base = process.env.TEST_DATABASE_URL;
if (base) {
  const copies: Copy[] = [];
  const imports: ImportResult[] = [];
  for (let run = 0; run < runs; run++) {
    copies.push(await withDatabase(base, copyPostgres));
    imports.push(await withDatabase(base, (url) => importEndToEnd("postgres", run, url)));
  }
  report("PostgreSQL", copies, imports, await withDatabase(base, (url) => smallIntoEmpty("postgres", url)));
}
rmSync(work, { recursive: true, force: true });
