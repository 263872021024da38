// The engine's two-period decomposition against one SQL query computing the same result on native
// PostgreSQL (issue 4), over a tenant of about a million invoice lines, side by side in one run. The
// numbers of both must agree to the cent; the engine works on the cube the server holds in memory
// (loaded once, then reused until the data changes), so the load is reported apart.
// Run: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/engine-vs-sql.bench.ts
import { randomBytes } from "node:crypto";
import { type Cube, variance } from "@varia/variance";
import { sql } from "kysely";
import pg from "pg";
import { createOrganisation } from "../src/admin/organisations";
import { loadCube } from "../src/analytics/cube-cache";
import { openDatabase } from "../src/db/database";
import { migrate } from "../src/db/migrate";
import { decompositionBySql } from "./decomposition-sql";
import { writeMillionLineTenant } from "./million-line-tenant";

const base = process.env.TEST_DATABASE_URL;
if (!base) {
  console.log("engine vs SQL: skipped (set TEST_DATABASE_URL to a PostgreSQL server)");
  process.exit(0);
}
const clients = Number(process.env.BENCH_CLIENTS ?? 9300);

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
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

const name = `varia_bench_${randomBytes(4).toString("hex")}`;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`create database ${name}`);
const url = Object.assign(new URL(base), { pathname: `/${name}` }).toString();
const database = await openDatabase({ kind: "postgres", url });
await migrate(database);
try {
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
    `tenant: ${size.lines} invoice lines, ${size.cubeCells} cube cells, written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const load = await timed(1, () => loadCube(database.db, org.organisationId));
  const cube: Cube = load.value;
  console.log(`cube load (once per data change): ${load.ms.toFixed(0)} ms, ${cube.size} cells`);
  const pairs: [string, string, number, number][] = [
    ["2024-05-01", "2024-06-01", 2024 * 12 + 4, 2024 * 12 + 5],
    ["2024-12-01", "2025-01-01", 2024 * 12 + 11, 2025 * 12 + 0],
    ["2023-06-01", "2025-06-01", 2023 * 12 + 5, 2025 * 12 + 5],
  ];
  console.log("| months | dataType | SQL (median of 5) | engine (median of 50) | speed-up | agree |");
  console.log("|---|---|---|---|---|---|");
  for (const [fromDate, toDate, from, to] of pairs) {
    for (const dataType of ["Revenue", "Margin"] as const) {
      const bySql = await timed(5, () =>
        decompositionBySql(database.db, org.organisationId, fromDate, toDate, dataType),
      );
      const byEngine = await timed(50, () => variance(cube, { dataType, from, to, detail: "summary" }));
      const agree =
        bySql.value.totalFrom === byEngine.value.totalFrom &&
        bySql.value.totalTo === byEngine.value.totalTo &&
        Object.entries(byEngine.value.byType).every(([type, sums]) => {
          const other = bySql.value.byType[type] ?? { positive: 0, negative: 0 };
          return other.positive === sums.positive && other.negative === sums.negative;
        });
      console.log(
        `| ${fromDate.slice(0, 7)} → ${toDate.slice(0, 7)} | ${dataType} | ${bySql.ms.toFixed(0)} ms | ${byEngine.ms.toFixed(1)} ms | ${(bySql.ms / byEngine.ms).toFixed(0)}x | ${agree ? "yes" : "NO"} |`,
      );
      if (!agree) {
        console.error(
          "engine",
          JSON.stringify(byEngine.value.byType),
          byEngine.value.totalFrom,
          byEngine.value.totalTo,
        );
        console.error("sql", JSON.stringify(bySql.value));
        process.exitCode = 1;
      }
    }
  }
} finally {
  await database.close();
  await admin.query(`drop database ${name} with (force)`);
  await admin.end();
}
