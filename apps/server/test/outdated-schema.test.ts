import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { migrate } from "../src/db/migrate";
import { openTestDatabase, testDatabaseKinds } from "./harness";

const bin = join(import.meta.dirname, "..", "bin", "varia-server.js");

/** What a database written before the migrations were folded holds (docs/storage.md). */
const olderSchema = `
  create table schema_migrations (version integer primary key, name text not null,
    applied_at timestamptz not null default now());
  insert into schema_migrations (version, name) values
    (1, 'core'), (10, 'invoice_data'), (11, 'backups'), (40, 'invoice_line_blocks');`;

describe("a database written by an older schema", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "varia-outdated-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("is refused at start with how to recreate it, and left as it was", async () => {
    const old = new PGlite(join(dataDir, "data"));
    await old.exec(olderSchema);
    await old.close();
    const started = spawnSync(process.execPath, [bin, "start", "--port", "0"], {
      env: { ...process.env, VARIA_DATA_DIR: dataDir, LOG_LEVEL: "silent", DATABASE_URL: "" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(started.status).toBe(1);
    expect(started.stderr).toContain(
      "varia-server: This database was written by an older version of Varia (migrations 011_backups, 040_invoice_line_blocks are no longer part of it) and cannot be upgraded.",
    );
    expect(started.stderr).toContain("delete the embedded database (the folder `data` in VARIA_DATA_DIR");
    const after = new PGlite(join(dataDir, "data"));
    const tables = await after.query<{ n: number }>(
      "select count(*)::int as n from information_schema.tables where table_schema = 'public'",
    );
    await after.close();
    expect(tables.rows[0]!.n).toBe(1);
  }, 90_000);

  for (const kind of testDatabaseKinds())
    it(`is refused by the migrations [${kind}]`, async () => {
      const { database, drop } = await openTestDatabase(kind);
      try {
        await sql`insert into schema_migrations (version, name) values (41, 'backup_line_blocks')`.execute(
          database.db,
        );
        await expect(migrate(database)).rejects.toThrow(
          /migrations 041_backup_line_blocks are no longer part of it\) and cannot be upgraded\. Recreate it: .* drop and create the database of DATABASE_URL/,
        );
      } finally {
        await drop();
      }
    });
});
