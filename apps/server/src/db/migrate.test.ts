import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { listMigrations } from "./migrate";

describe("the migration files", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const folder = (files: string[]) => {
    const dir = mkdtempSync(join(tmpdir(), "varia-migrations-"));
    dirs.push(dir);
    for (const file of files) writeFileSync(join(dir, file), "select 1;");
    return dir;
  };

  it("are read in version order", () => {
    expect(listMigrations(folder(["010_b.sql", "001_a.sql", "notes.txt"])).map((m) => m.version)).toEqual([
      1, 10,
    ]);
  });

  it("refuse two files of one version, which would leave one unapplied where the other was", () => {
    expect(() => listMigrations(folder(["045_usage.sql", "045_settings.sql"]))).toThrow(
      "Migrations 45_settings and 45_usage share a version: renumber one",
    );
  });

  it("of the repository have a version each", () => {
    const versions = listMigrations().map((m) => m.version);
    expect(new Set(versions).size).toBe(versions.length);
  });
});
