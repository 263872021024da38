import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/database";

// A new PGlite data directory is made in a process of its own and renamed into place
// (docs/storage.md, "PGlite's memory").
describe("a new PGlite data directory", () => {
  const root = mkdtempSync(join(tmpdir(), "varia-pglite-dir-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("is created where it is asked for, with the server's settings, and nothing beside it", async () => {
    const dataDir = join(root, "fresh", "data");
    const database = await openDatabase({ kind: "pglite", dataDir });
    try {
      const { rows } = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(database.db);
      expect(rows[0]!.shared_buffers).toBe("32MB");
    } finally {
      await database.close();
    }
    expect(existsSync(join(dataDir, "PG_VERSION"))).toBe(true);
    expect(readdirSync(join(root, "fresh"))).toEqual(["data"]);
  }, 60_000);

  it("is made in an empty folder that is there already", async () => {
    const dataDir = join(root, "empty", "data");
    mkdirSync(dataDir, { recursive: true });
    const database = await openDatabase({ kind: "pglite", dataDir });
    await database.close();
    expect(existsSync(join(dataDir, "PG_VERSION"))).toBe(true);
  }, 60_000);

  it("is not made in a folder that holds files but no database, which is left as it was", async () => {
    const dataDir = join(root, "other", "data");
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, "notes.txt"), "mine");
    await expect(openDatabase({ kind: "pglite", dataDir })).rejects.toThrow(
      `${dataDir} holds files but no database (it has no PG_VERSION): move it away or delete it, and start again`,
    );
    expect(readdirSync(dataDir)).toEqual(["notes.txt"]);
    expect(readdirSync(join(root, "other"))).toEqual(["data"]);
  });
});
