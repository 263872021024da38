// The analytics calls of issue 4 in one run, over a tenant of about a million invoice lines in 36
// months written with SQL (bench/million-line-tenant.ts):
// 1. On PostgreSQL (TEST_DATABASE_URL): the engine's two-period decomposition against one SQL query
//    computing the same byType result (bench/decomposition-sql.ts), side by side; both must agree to
//    the cent and the engine must be at least 10x faster.
// 2. On PGlite (on disk) and PostgreSQL: WaterfallChart, OverviewKpi and ActivityTable (first page)
//    of a real server, each under autocannon with 20 concurrent connections for BENCH_SECONDS
//    (default 10), warm (each question asked once before measuring); p95 must be under 50 ms.
// Autocannon runs in a worker thread, so it does not share the server's event loop.
// Run: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:analytics -w @varia/server
//      (BENCH_SKIP_PGLITE=1 skips PGlite; BENCH_CLIENTS scales the tenant, default 9,300 = ~1M lines)
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { variance } from "@varia/variance";
import { sql } from "kysely";
import pg from "pg";
import { createOrganisation, createTokenForUser } from "../src/admin/organisations";
import { loadCube } from "../src/analytics/cube-cache";
import { loadConfig } from "../src/config";
import { type Database, openDatabase } from "../src/db/database";
import { migrate } from "../src/db/migrate";
import { startServer } from "../src/server";
import { decompositionBySql } from "./decomposition-sql";
import { load } from "./load-worker";
import { writeMillionLineTenant } from "./million-line-tenant";

const targetP95Ms = 50;
const targetSpeedUp = 10;
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const clients = Number(process.env.BENCH_CLIENTS ?? 9300);

/** The month pairs the load cycles through: a dashboard's usual questions. */
const monthPairs = [
  ["2025-05", "2025-06"],
  ["2025-11", "2025-12"],
  ["2024-12", "2025-12"],
  ["2025-01", "2025-02"],
] as const;

const calls: Record<string, (from: string, to: string) => string> = {
  // Not a target: what authentication alone costs (a call that computes nothing), for reference.
  "Account/AuthorisedPing (reference)": () => "/api/Account/AuthorisedPing",
  WaterfallChart: (from, to) =>
    `/api/variance/VarianceOverview/WaterfallChart?DataType=Revenue&DateFrom=${from}&DateTo=${to}&RecordTypeFrom=Actual&RecordTypeTo=Actual&StockType=&PeriodFrom=${from}&PeriodTo=${to}&RecordType=Actual`,
  OverviewKpi: (from, to) =>
    `/api/variance/VarianceOverview/OverviewKpi?dataType=Revenue&dateFrom=${from}&dateTo=${to}`,
  "ActivityTable (first page)": (from, to) =>
    `/api/variance/VarianceOverview/ActivityTable?dataType=Revenue&dateFrom=${from}&dateTo=${to}&startRow=0&rowLimit=100`,
};

await main();

async function main() {
  console.log(
    `analytics bench: ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${seconds} s per call`,
  );
  let failed = false;
  const rows: string[] = [];
  const base = process.env.TEST_DATABASE_URL;
  if (base) {
    const name = `varia_bench_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
    try {
      const url = Object.assign(new URL(base), { pathname: `/${name}` }).toString();
      const database = await openDatabase({ kind: "postgres", url });
      failed = (await engineAgainstSql(database)) || failed;
      failed = (await underLoad("PostgreSQL", database, rows, true)) || failed;
    } finally {
      await admin.query(`drop database ${name} with (force)`);
      await admin.end();
    }
  } else console.log("engine vs SQL and PostgreSQL: skipped (set TEST_DATABASE_URL)");
  if (!process.env.BENCH_SKIP_PGLITE) {
    const work = mkdtempSync(join(tmpdir(), "varia-bench-analytics-pglite-"));
    try {
      const database = await openDatabase({ kind: "pglite", dataDir: join(work, "data") });
      failed = (await underLoad("PGlite", database, rows)) || failed;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  console.log(`\n| database | call | requests | p50 | p95 | p99 | non-2xx | first asked (cold) |`);
  console.log("|---|---|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
  if (failed) {
    console.log("\nA target was missed (or the numbers disagree).");
    process.exitCode = 1;
  }
}

/** A migrated database with the bench organisation and its million lines. */
async function benchTenant(label: string, database: Database) {
  await migrate(database);
  const org = await createOrganisation(database.db, {
    tenant: "bench",
    name: "Bench",
    adminEmail: "a@bench.example.com",
    adminPassword: "a long bench password",
  });
  const started = performance.now();
  const size = await writeMillionLineTenant(database.db, org.organisationId, { clients });
  await sql`analyze`.execute(database.db);
  console.log(
    `${label}: ${size.lines} invoice lines, ${size.cubeCells} cube cells, written in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  return org;
}

function median(values: number[]) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

async function timed<T>(runs: number, f: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const times: number[] = [];
  let value!: T;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    value = await f();
    times.push(performance.now() - started);
  }
  return { ms: median(times), value };
}

/** The decomposition by the engine (over the cube in memory) and by one SQL query, side by side. */
async function engineAgainstSql(database: Database): Promise<boolean> {
  const org = await benchTenant("PostgreSQL", database);
  const load = await timed(1, () => loadCube(database.db, org.organisationId));
  const cube = load.value;
  console.log(`cube load (once per data change): ${load.ms.toFixed(0)} ms, ${cube.size} cells`);
  const month = (ym: string) => Number(ym.slice(0, 4)) * 12 + Number(ym.slice(5, 7)) - 1;
  let failed = false;
  console.log(
    "\n| months | dataType | one SQL query (median of 5) | engine (median of 50) | speed-up | agree |",
  );
  console.log("|---|---|---|---|---|---|");
  for (const [from, to] of [monthPairs[0], monthPairs[2]]) {
    for (const dataType of ["Revenue", "Margin"] as const) {
      const bySql = await timed(5, () =>
        decompositionBySql(database.db, org.organisationId, `${from}-01`, `${to}-01`, dataType),
      );
      const byEngine = await timed(50, () =>
        variance(cube, { dataType, from: month(from), to: month(to), detail: "summary" }),
      );
      const agree =
        bySql.value.totalFrom === byEngine.value.totalFrom &&
        bySql.value.totalTo === byEngine.value.totalTo &&
        Object.entries(byEngine.value.byType).every(([type, sums]) => {
          const other = bySql.value.byType[type] ?? { positive: 0, negative: 0 };
          return other.positive === sums.positive && other.negative === sums.negative;
        });
      const speedUp = bySql.ms / byEngine.ms;
      if (!agree || speedUp < targetSpeedUp) failed = true;
      console.log(
        `| ${from} → ${to} | ${dataType} | ${bySql.ms.toFixed(0)} ms | ${byEngine.ms.toFixed(1)} ms | ${speedUp.toFixed(0)}x | ${agree ? "yes" : "NO"} |`,
      );
    }
  }
  return failed;
}

/** The three calls of a real server under 20 concurrent connections, warm. */
async function underLoad(
  label: string,
  database: Database,
  rows: string[],
  withTenant = false,
): Promise<boolean> {
  const work = mkdtempSync(join(tmpdir(), "varia-bench-analytics-"));
  if (!withTenant) await benchTenant(label, database);
  const { token } = await createTokenForUser(database.db, {
    tenant: "bench",
    email: "a@bench.example.com",
    name: "bench",
  });
  // Called at 127.0.0.1, a host that names no tenant: the bench tenant is the default one, where its token counts.
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    VARIA_DATA_DIR: work,
    LOG_LEVEL: "silent",
    VARIA_DEFAULT_TENANT: "bench",
  });
  const server = await startServer(config, { database, logger: false });
  let failed = false;
  try {
    for (const [name, path] of Object.entries(calls)) {
      const paths = monthPairs.map(([from, to]) => path(from, to));
      const warmStarted = performance.now();
      for (const p of paths) {
        const response = await fetch(server.url + p, { headers: { authorization: `Bearer ${token}` } });
        if (!response.ok) throw new Error(`${name}: ${response.status} ${await response.text()}`);
        await response.arrayBuffer();
      }
      const coldMs = performance.now() - warmStarted;
      const result = await load({ url: server.url, paths, token, seconds });
      if ((!(result.p95 < targetP95Ms) && !name.endsWith("(reference)")) || result.non2xx > 0) failed = true;
      rows.push(
        `| ${label} | ${name} | ${result.requests} | ${result.p50} ms | ${result.p95} ms | ${result.p99} ms | ${result.non2xx} | ${coldMs.toFixed(0)} ms for ${paths.length} |`,
      );
      console.log(rows.at(-1));
    }
  } finally {
    await server.close();
    await database.close();
    rmSync(work, { recursive: true, force: true });
  }
  return failed;
}
