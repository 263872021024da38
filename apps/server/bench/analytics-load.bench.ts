// The analytics calls under load (issue 4): a tenant of about a million invoice lines over 36 months,
// WaterfallChart, OverviewKpi and ActivityTable (first page) each driven by autocannon with 20
// concurrent connections, warm (the cube loaded and each query asked once before measuring), on
// PGlite (on disk) and on PostgreSQL when TEST_DATABASE_URL is set. Autocannon runs in a worker
// thread so that it does not share the server's event loop; p95 comes from every response's time.
// Run: npm run bench -w @varia/server  (BENCH_SECONDS per call, default 10; BENCH_SKIP_PGLITE=1)
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import autocannon from "autocannon";
import { sql } from "kysely";
import pg from "pg";
import { createOrganisation, createTokenForUser } from "../src/admin/organisations";
import { loadConfig } from "../src/config";
import { openDatabase } from "../src/db/database";
import { migrate } from "../src/db/migrate";
import { startServer } from "../src/server";
import { writeMillionLineTenant } from "./million-line-tenant";

interface LoadJob {
  url: string;
  paths: string[];
  token: string;
  seconds: number;
}

interface LoadResult {
  requests: number;
  non2xx: number;
  p50: number;
  p95: number;
  p99: number;
}

function load(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: job, execArgv: process.execArgv });
    worker.once("message", resolve);
    worker.once("error", reject);
  });
}

/** The month pairs the load cycles through: a dashboard's usual questions. */
const monthPairs = [
  ["2025-05", "2025-06"],
  ["2025-11", "2025-12"],
  ["2024-12", "2025-12"],
  ["2025-01", "2025-02"],
] as const;

const calls: Record<string, (from: string, to: string) => string> = {
  WaterfallChart: (from, to) =>
    `/api/variance/VarianceOverview/WaterfallChart?DataType=Revenue&DateFrom=${from}&DateTo=${to}&RecordTypeFrom=Actual&RecordTypeTo=Actual&StockType=&PeriodFrom=${from}&PeriodTo=${to}&RecordType=Actual`,
  OverviewKpi: (from, to) =>
    `/api/variance/VarianceOverview/OverviewKpi?dataType=Revenue&dateFrom=${from}&dateTo=${to}`,
  "ActivityTable (first page)": (from, to) =>
    `/api/variance/VarianceOverview/ActivityTable?dataType=Revenue&dateFrom=${from}&dateTo=${to}&startRow=0&rowLimit=100`,
};

async function run(kind: "pglite" | "postgres", url?: string) {
  const work = mkdtempSync(join(tmpdir(), "varia-bench-analytics-"));
  const database =
    kind === "postgres"
      ? await openDatabase({ kind, url: url! })
      : await openDatabase({ kind, dataDir: join(work, "data") });
  await migrate(database);
  const org = await createOrganisation(database.db, {
    tenant: "bench",
    name: "Bench",
    adminEmail: "a@bench.example.com",
    adminPassword: "a long bench password",
  });
  const started = performance.now();
  const size = await writeMillionLineTenant(database.db, org.organisationId);
  await sql`analyze`.execute(database.db);
  console.log(
    `${kind}: ${size.lines} invoice lines, ${size.cubeCells} cube cells, written in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  const { token } = await createTokenForUser(database.db, {
    tenant: "bench",
    email: "a@bench.example.com",
    name: "bench",
  });
  const config = loadConfig({ PORT: "0", HOST: "127.0.0.1", VARIA_DATA_DIR: work, LOG_LEVEL: "silent" });
  const server = await startServer(config, { database, logger: false });
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  try {
    for (const [name, path] of Object.entries(calls)) {
      const paths = monthPairs.map(([from, to]) => path(from, to));
      const warmStarted = performance.now();
      for (const p of paths) {
        const response = await fetch(server.url + p, { headers: { authorization: `Bearer ${token}` } });
        if (!response.ok) throw new Error(`${name}: ${response.status} ${await response.text()}`);
        await response.arrayBuffer();
      }
      const warmMs = performance.now() - warmStarted;
      const result = await load({ url: server.url, paths, token, seconds });
      console.log(
        `| ${kind === "pglite" ? "PGlite" : "PostgreSQL"} | ${name} | ${result.requests} | ${result.p50} ms | ${result.p95} ms | ${result.p99} ms | ${result.non2xx} | ${warmMs.toFixed(0)} ms |`,
      );
    }
  } finally {
    await server.close();
    await database.close();
    rmSync(work, { recursive: true, force: true });
  }
}

async function main() {
  console.log("| database | call | requests | p50 | p95 | p99 | non-2xx | first calls (cold) |");
  console.log("|---|---|---|---|---|---|---|---|");
  if (!process.env.BENCH_SKIP_PGLITE) await run("pglite");
  const base = process.env.TEST_DATABASE_URL;
  if (base) {
    const name = `varia_bench_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
    try {
      await run("postgres", Object.assign(new URL(base), { pathname: `/${name}` }).toString());
    } finally {
      await admin.query(`drop database ${name} with (force)`);
      await admin.end();
    }
  }
}

if (!isMainThread) {
  runLoad();
} else {
  await main();
}

function runLoad() {
  const job = workerData as LoadJob;
  const times: number[] = [];
  let non2xx = 0;
  const finish = (error: Error | null) => {
    if (error) throw error;
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? Number.NaN;
    parentPort!.postMessage({
      requests: times.length,
      non2xx,
      p50: at(0.5),
      p95: at(0.95),
      p99: at(0.99),
    } satisfies LoadResult);
  };
  const instance = autocannon(
    {
      url: job.url,
      connections: 20,
      duration: job.seconds,
      headers: { authorization: `Bearer ${job.token}` },
      requests: job.paths.map((path) => ({ method: "GET", path })),
    },
    finish,
  );
  instance.on("response", (_client, statusCode, _bytes, responseTime) => {
    times.push(responseTime);
    if (statusCode < 200 || statusCode > 299) non2xx++;
  });
}
