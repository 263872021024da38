import { describe, expect, it } from "vitest";
import { type Backup, restoreSummary } from "./backups";

const backup = (backupID: string, reason: Backup["reason"], createdAt: string): Backup => ({
  backupID,
  reason,
  lineCount: 10,
  sizeBytes: 100,
  createdAt,
  importFileName: reason === "BeforeImport" ? `${backupID}.csv` : null,
  importJobGuid: reason === "BeforeImport" ? `job-${backupID}` : null,
});

describe("restoreSummary", () => {
  // Newest first, as Backup/BackupList answers.
  const list = [
    backup("r1", "BeforeRestore", "2026-11-05T00:00:00.000Z"),
    backup("i3", "BeforeImport", "2026-11-04T00:00:00.000Z"),
    backup("m1", "OnDemand", "2026-11-03T00:00:00.000Z"),
    backup("i2", "BeforeImport", "2026-11-02T00:00:00.000Z"),
    backup("i1", "BeforeImport", "2026-11-01T00:00:00.000Z"),
  ];
  const ids = (backups: Backup[]) => backups.map((b) => b.backupID);

  it("undoes the imports after a backup made by hand, oldest first, and the restores since", () => {
    const summary = restoreSummary(list, list[2]!);
    expect(ids(summary.importsUndone)).toEqual(["i3"]);
    expect(ids(summary.restoresUndone)).toEqual(["r1"]);
  });

  it("undoes the import a backup was taken before, with every later one", () => {
    expect(ids(restoreSummary(list, list[4]!).importsUndone)).toEqual(["i1", "i2", "i3"]);
  });

  it("undoes nothing for the newest backup made by hand", () => {
    const newest = backup("m2", "OnDemand", "2026-11-06T00:00:00.000Z");
    expect(restoreSummary([newest, ...list], newest)).toEqual({ importsUndone: [], restoresUndone: [] });
  });
});
