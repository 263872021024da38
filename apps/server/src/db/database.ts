import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { type ConstructorOptions, fromPglite } from "pg-boss";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import { PGliteDialect } from "./pglite-dialect";
import type { Schema } from "./schema";
import { ScopedKysely, TransactionScope } from "./transaction-scope";

export type DatabaseKind = "pglite" | "postgres";

/**
 * The application's database: a Kysely handle over PGlite or PostgreSQL, and a script runner.
 * Inside a transaction (`db.transaction().execute(callback)`, `bulkTransaction`), query only
 * through the handle the callback receives: the outer `db` refuses with
 * `OuterHandleInTransactionError` (`transaction-scope.ts`), on both databases.
 */
export interface Database {
  readonly kind: DatabaseKind;
  readonly db: Kysely<Schema>;
  /** Runs a multi-statement SQL script (migrations). */
  execScript(sql: string): Promise<void>;
  /**
   * Runs `fn` in one transaction that can also bulk-load rows with binary COPY (imports); commits
   * when `fn` resolves, rolls back when it throws.
   */
  bulkTransaction<T>(fn: (session: BulkSession) => Promise<T>): Promise<T>;
  /** The output of `copy (select …) to stdout with (format binary)`, for `statement` the select. */
  copyOut(statement: string): Promise<Uint8Array>;
  /** Runs `fn` while holding a cluster-wide advisory lock (PostgreSQL); PGlite has one owner anyway. */
  withAdvisoryLock<T>(key: number, fn: () => Promise<T>): Promise<T>;
  /**
   * How pg-boss reaches this database (`imports/import-queue.ts`): on PostgreSQL a small pool of
   * its own; on PGlite the one connection, taken in turn like every other query, so a pg-boss
   * statement never runs inside another holder's transaction.
   */
  readonly jobQueueConnection: Pick<ConstructorOptions, "backend" | "db" | "connectionString" | "max">;
  close(): Promise<void>;
}

/** A transaction with bulk loading. */
export interface BulkSession {
  readonly db: Kysely<Schema>;
  /**
   * Loads rows given in binary COPY format (see `BinaryCopyWriter`) into `table`'s `columns`;
   * `freeze` writes them frozen (`COPY … FREEZE`), for a table created in this transaction only.
   */
  copyBinary(
    table: string,
    columns: readonly string[],
    body: readonly Uint8Array[],
    options?: { freeze?: boolean },
  ): Promise<void>;
  /** `Database.copyOut` inside this transaction. */
  copyOut(statement: string): Promise<Uint8Array>;
}

const copyOutStatement = (select: string, target: string) =>
  `copy (${select}) to ${target} with (format binary)`;

/** Runs a COPY TO STDOUT on a PostgreSQL connection and gathers its output. */
async function copyOutOf(client: pg.PoolClient, select: string): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  const stream = client.query(copyTo(copyOutStatement(select, "stdout")));
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const copyStatement = (table: string, columns: readonly string[], source: string, freeze = false) =>
  `copy ${table} (${columns.join(", ")}) from ${source} with (format binary${freeze ? ", freeze" : ""})`;

export type DatabaseTarget = { kind: "pglite"; dataDir: string | null } | { kind: "postgres"; url: string };

/**
 * PGlite's buffers live in its WebAssembly memory, which never shrinks. The default 128 MB of
 * shared buffers filled up by a large import took the server's peak from about 0.9 to 1.1 GiB;
 * 32 MB loses no import speed (the operating system caches the files beneath it).
 */
const pgliteSettings = ["shared_buffers=32MB"];

/** Opens the database named by the target; `dataDir: null` keeps PGlite in memory (tests only). */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: target.url, max: 10 });
    // An idle connection the server closes (a restart, a failover) must not take the process down:
    // the pool drops it and opens another on the next query.
    pool.on("error", (error) => {
      process.emitWarning(`An idle database connection was closed: ${error.message}`);
    });
    const scope = new TransactionScope();
    const connect = () => {
      scope.assertOutside();
      return pool.connect();
    };
    const db = new ScopedKysely<Schema>(
      { dialect: new PostgresDialect({ pool: { connect, end: () => pool.end() } }) },
      scope,
    );
    return {
      kind: "postgres",
      db,
      async execScript(sql) {
        scope.assertOutside();
        await pool.query(sql);
      },
      async bulkTransaction(fn) {
        const client = await connect();
        let healthy = true;
        try {
          await client.query("begin");
          // A Kysely bound to this one connection, so every query of `fn` is in the transaction.
          const session = new Kysely<Schema>({
            dialect: new PostgresDialect({
              pool: {
                connect: async () => ({ query: client.query.bind(client), release() {} }),
                end: async () => {},
              },
            }),
          });
          const result = await scope.run(() =>
            fn({
              db: session,
              async copyBinary(table, columns, body, options) {
                await pipeline(
                  Readable.from(body),
                  client.query(copyFrom(copyStatement(table, columns, "stdin", options?.freeze))),
                );
              },
              copyOut: (select) => copyOutOf(client, select),
            }),
          );
          await client.query("commit");
          return result;
        } catch (error) {
          await client.query("rollback").catch(() => {
            healthy = false;
          });
          throw error;
        } finally {
          client.release(!healthy);
        }
      },
      async copyOut(select) {
        const client = await connect();
        try {
          return await copyOutOf(client, select);
        } finally {
          client.release();
        }
      },
      async withAdvisoryLock(key, fn) {
        const client = await connect();
        try {
          await client.query("select pg_advisory_lock($1)", [key]);
          return await fn();
        } finally {
          await client.query("select pg_advisory_unlock($1)", [key]).catch(() => {});
          client.release();
        }
      },
      jobQueueConnection: { backend: "postgres", connectionString: target.url, max: 4 },
      async close() {
        await db.destroy();
      },
    };
  }
  if (target.dataDir && !existsSync(join(target.dataDir, "PG_VERSION")))
    await createPgliteCluster(target.dataDir);
  const pglite = new PGlite(target.dataDir ?? undefined, { postgresqlconf: pgliteSettings });
  await pglite.waitReady;
  const scope = new TransactionScope();
  const db = new ScopedKysely<Schema>({ dialect: new PGliteDialect(pglite, scope) }, scope);
  const jobQueueSql = fromPglite(pglite);
  return {
    kind: "pglite",
    db,
    async execScript(sql) {
      // Through Kysely's connection queue, so a script never interleaves with a transaction.
      await db.connection().execute(async () => {
        await pglite.exec(sql);
      });
    },
    bulkTransaction: (fn) =>
      db.transaction().execute((tx) =>
        fn({
          db: tx,
          async copyBinary(table, columns, body, options) {
            // The transaction holds PGlite's one connection, so this COPY runs inside it.
            await pglite.query(copyStatement(table, columns, "'/dev/blob'", options?.freeze), [], {
              blob: new Blob(body as Uint8Array<ArrayBuffer>[]),
            });
          },
          copyOut: (select) => pgliteCopyOut(pglite, select),
        }),
      ),
    // Through Kysely's connection queue, so the COPY never runs inside another holder's transaction.
    copyOut: (select) => db.connection().execute(() => pgliteCopyOut(pglite, select)),
    withAdvisoryLock: (_key, fn) => fn(),
    jobQueueConnection: {
      backend: "pglite",
      // pg-boss's own PGlite adapter (multi-statement scripts through exec, a failed transaction of
      // its own rolled back), run while holding the connection. No LISTEN: workers poll.
      db: {
        executeSql: (text, values) => db.connection().execute(() => jobQueueSql.executeSql(text, values)),
        // Statements every session runs first (pg-boss's TestClock in tests): PGlite has one session.
        setSessionStatements: (statements) =>
          db.connection().execute(() => jobQueueSql.setSessionStatements!(statements)),
      },
    },
    async close() {
      await db.destroy();
      await pglite.close();
    },
  };
}

/**
 * Creates a new PGlite data directory in a process of its own, run with V8's baseline WebAssembly
 * compiler only (`--liftoff-only`), and lets it end (docs/storage.md, "PGlite's memory"): creating
 * the cluster takes half a gigabyte of WebAssembly memory, and under the optimising compiler
 * another 0.6 GB to compile PGlite's SQL parser; neither reaches the server, whose own instance then
 * opens an existing directory. The cluster is made in a sibling folder and renamed into place, so an
 * interrupted creation leaves no half-made directory where the database is looked for.
 */
async function createPgliteCluster(dataDir: string) {
  if (existsSync(dataDir) && readdirSync(dataDir).length)
    throw new Error(
      `${dataDir} holds files but no database (it has no PG_VERSION): move it away or delete it, and start again`,
    );
  const creating = `${dataDir}.creating`;
  mkdirSync(dirname(dataDir), { recursive: true });
  rmSync(creating, { recursive: true, force: true });
  const child = spawn(
    process.execPath,
    [
      "--liftoff-only",
      fileURLToPath(new URL("./pglite-init.mjs", import.meta.url)),
      creating,
      JSON.stringify(pgliteSettings),
    ],
    { stdio: ["ignore", "ignore", "pipe", "ipc"] },
  );
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (text: string) => {
    if (stderr.length < 4000) stderr += text;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  if (code !== 0) {
    rmSync(creating, { recursive: true, force: true });
    throw new Error(
      `creating the database in ${dataDir} stopped (exit code ${code})${stderr.trim() ? `: ${stderr.trim()}` : ""}`,
    );
  }
  if (existsSync(dataDir)) rmdirSync(dataDir);
  renameSync(creating, dataDir);
}

/** PGlite hands a COPY's output over as a blob (reading bytea through a query is ten times slower). */
async function pgliteCopyOut(pglite: PGlite, select: string): Promise<Uint8Array> {
  const result = await pglite.query(copyOutStatement(select, "'/dev/blob'"));
  return new Uint8Array(await result.blob!.arrayBuffer());
}
