import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cleanEnv,
  createTenant,
  emptyServerEnv,
  type RunningServer,
  runVaria,
  startServer,
  stopServer,
  tenantUrl,
} from "./running-server";

/**
 * The ops user who keeps a tenant's data right month after month, from a script: a corrected file
 * imported over the first, an import undone by a restore.
 */
const header =
  "InvoiceDate,InvoiceNumber,LineNumber,ClientCode,ClientName,ItemCode,StockType,Quantity,Amount";
const october = [
  header,
  "2025-10-05,UP-1,1,CEL,Célestine Café,PRO,Subscription,2,200.00",
  "2025-10-05,UP-1,2,CEL,Célestine Café,SUP,Hourly,1,50.00",
  "",
].join("\n");
// October corrected: both lines again (one amount changed) and a line the first file forgot.
const octoberCorrected = [
  header,
  "2025-10-05,UP-1,1,CEL,Célestine Café,PRO,Subscription,2,210.00",
  "2025-10-05,UP-1,2,CEL,Célestine Café,SUP,Hourly,1,50.00",
  "2025-10-05,UP-1,3,CEL,Célestine Café,ADD,Subscription,1,30.00",
  "",
].join("\n");

describe("varia for the upkeep of a tenant's data", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "varia-cli-upkeep-"));
  const files = mkdtempSync(join(tmpdir(), "varia-cli-upkeep-files-"));
  const serverEnv = emptyServerEnv(dataDir);
  let server: RunningServer;
  let env: NodeJS.ProcessEnv;

  const file = (name: string, content: string) => {
    const path = join(files, name);
    writeFileSync(path, content);
    return path;
  };

  beforeAll(async () => {
    server = await startServer(serverEnv);
    const { token } = createTenant(serverEnv, "upkeep");
    env = cleanEnv({ VARIA_HOST: tenantUrl(server, "upkeep"), VARIA_TOKEN: token });
  });
  afterAll(async () => {
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(files, { recursive: true, force: true });
  });

  it("says how many of a corrected file's lines replaced stored ones and how many are new", () => {
    const wait = ["--wait", "--poll-interval", "0.2"];
    const first = runVaria(["import", "upload", file("october.csv", october), ...wait], env);
    expect([first.status, first.stdout]).toEqual([
      0,
      "Job completed successfully: 2 lines imported from october.csv: all new\n",
    ]);
    const corrected = runVaria(["import", "upload", file("october.csv", octoberCorrected), ...wait], env);
    expect([corrected.status, corrected.stdout]).toEqual([
      0,
      "Job completed successfully: 3 lines imported from october.csv: 1 new, 2 replacing stored lines of the same invoice and line number\n",
    ]);
    const listed = JSON.parse(runVaria(["--json", "import", "list"], env).stdout) as {
      rowsImported: number;
      rowsReplaced: number;
    }[];
    expect(listed.map((j) => [j.rowsImported, j.rowsReplaced])).toEqual([
      [3, 2],
      [2, 0],
    ]);
  });

  it("says what a restore left: no lines when it went back to before the first import, else how many", () => {
    const backups = JSON.parse(runVaria(["--json", "backups", "list"], env).stdout) as {
      backupID: string;
      reason: string;
      lineCount: number;
    }[];
    // The oldest: taken before the first import, which replaced nothing.
    const beforeFirst = backups.at(-1)!;
    expect(beforeFirst).toMatchObject({ reason: "BeforeImport", lineCount: 0 });
    const wait = ["--yes", "--wait", "--poll-interval", "0.2"];
    const undone = runVaria(["backups", "restore", beforeFirst.backupID, ...wait], env);
    expect(undone.status, undone.stderr).toBe(0);
    expect(undone.stdout).toMatch(
      /^Job completed successfully: restored the backup of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(before the import of october\.csv\): no invoice lines are stored now, as none were then\n$/,
    );
    // That restore undone in turn: the corrected October's three lines are back.
    const beforeRestore = JSON.parse(runVaria(["--json", "backups", "list"], env).stdout)[0] as {
      backupID: string;
      reason: string;
    };
    expect(beforeRestore.reason).toBe("BeforeRestore");
    const redone = runVaria(["backups", "restore", beforeRestore.backupID, ...wait], env);
    expect(redone.status, redone.stderr).toBe(0);
    expect(redone.stdout).toMatch(
      /^Job completed successfully: restored the backup of .* \(before a restore\): the 3 invoice lines stored now are as they were then\n$/,
    );
  });
});
