import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "./database";

export const migrationsDir = join(import.meta.dirname, "..", "..", "migrations");

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * The ordered, versioned migration files (`NNN_name.sql`). Two files of one version would let the
 * second be skipped wherever the first was applied (branches that each added one): refused.
 */
export function listMigrations(dir = migrationsDir): Migration[] {
  const migrations = readdirSync(dir)
    .filter((file) => /^\d{3}_[\w-]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 3)),
      name: file.slice(4, -4),
      sql: readFileSync(join(dir, file), "utf8"),
    }));
  for (let i = 1; i < migrations.length; i++) {
    const [before, after] = [migrations[i - 1]!, migrations[i]!];
    if (before.version === after.version)
      throw new Error(
        `Migrations ${before.version}_${before.name} and ${after.version}_${after.name} share a version: renumber one`,
      );
  }
  return migrations;
}

/**
 * A database whose schema was written by migrations that are no longer in the set: they were folded
 * into the present ones before the first release (docs/storage.md), so nothing would bring it up to
 * date. Its data is not carried over: the message says how to start afresh.
 */
export class OutdatedSchemaError extends Error {}

/** Refuses a database with applied migrations that the present set does not have (see above). */
function refuseOutdatedSchema(applied: { version: number; name: string }[], migrations: Migration[]) {
  const known = new Map(migrations.map((m) => [m.version, m.name]));
  const unknown = applied.filter((m) => known.get(m.version) !== m.name);
  if (!unknown.length) return;
  throw new OutdatedSchemaError(
    `This database was written by an older version of Varia (migrations ${unknown
      .map((m) => `${String(m.version).padStart(3, "0")}_${m.name}`)
      .join(", ")} are no longer part of it) and cannot be upgraded. ` +
      "Recreate it: stop the server; delete the embedded database (the folder `data` in VARIA_DATA_DIR, " +
      "by default .varia/data) or, on PostgreSQL, drop and create the database of DATABASE_URL; " +
      "then start the server again and import the invoice data anew.",
  );
}

/**
 * Applies every migration not yet applied, each in its own transaction, in version order, after
 * refusing a database written by an older set (`OutdatedSchemaError`). On PostgreSQL an advisory
 * lock keeps two servers starting at once from racing.
 */
export async function migrate(database: Database, migrations = listMigrations()): Promise<number[]> {
  await database.execScript(`
    create table if not exists schema_migrations (
      version integer primary key,
      name text not null,
      applied_at timestamptz not null default now()
    );`);
  return database.withAdvisoryLock(7_270_101, async () => {
    const rows = await database.db.selectFrom("schema_migrations").select(["version", "name"]).execute();
    refuseOutdatedSchema(rows, migrations);
    const applied = new Set(rows.map((r) => r.version));
    const done: number[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      const record = `insert into schema_migrations (version, name) values (${migration.version}, '${migration.name.replace(/'/g, "''")}');`;
      try {
        await database.execScript(`begin;\n${migration.sql}\n;${record}\ncommit;`);
      } catch (error) {
        await database.execScript("rollback;").catch(() => {});
        throw new Error(
          `Migration ${migration.version}_${migration.name} failed: ${(error as Error).message}`,
        );
      }
      done.push(migration.version);
    }
    return done;
  });
}
