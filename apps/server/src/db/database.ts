import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { PGliteDialect } from "./pglite-dialect";
import type { Schema } from "./schema";

export type DatabaseKind = "pglite" | "postgres";

/** The application's database: a Kysely handle over PGlite or PostgreSQL, and a script runner. */
export interface Database {
  readonly kind: DatabaseKind;
  readonly db: Kysely<Schema>;
  /** Runs a multi-statement SQL script (migrations). */
  execScript(sql: string): Promise<void>;
  /** Runs `fn` while holding a cluster-wide advisory lock (PostgreSQL); PGlite has one owner anyway. */
  withAdvisoryLock<T>(key: number, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export type DatabaseTarget = { kind: "pglite"; dataDir: string | null } | { kind: "postgres"; url: string };

/** Opens the database named by the target; `dataDir: null` keeps PGlite in memory (tests only). */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: target.url, max: 10 });
    // An idle connection the server closes (a restart, a failover) must not take the process down:
    // the pool drops it and opens another on the next query.
    pool.on("error", (error) => {
      process.emitWarning(`An idle database connection was closed: ${error.message}`);
    });
    const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
    return {
      kind: "postgres",
      db,
      async execScript(sql) {
        await pool.query(sql);
      },
      async withAdvisoryLock(key, fn) {
        const client = await pool.connect();
        try {
          await client.query("select pg_advisory_lock($1)", [key]);
          return await fn();
        } finally {
          await client.query("select pg_advisory_unlock($1)", [key]).catch(() => {});
          client.release();
        }
      },
      async close() {
        await db.destroy();
      },
    };
  }
  if (target.dataDir) mkdirSync(target.dataDir, { recursive: true });
  const pglite = target.dataDir ? new PGlite(target.dataDir) : new PGlite();
  await pglite.waitReady;
  const db = new Kysely<Schema>({ dialect: new PGliteDialect(pglite) });
  return {
    kind: "pglite",
    db,
    async execScript(sql) {
      // Through Kysely's connection queue, so a script never interleaves with a transaction.
      await db.connection().execute(async () => {
        await pglite.exec(sql);
      });
    },
    withAdvisoryLock: (_key, fn) => fn(),
    async close() {
      await db.destroy();
      await pglite.close();
    },
  };
}
