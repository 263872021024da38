import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
      jobGuid: string;
      rowsImported: number;
      rowsReplaced: number;
    }[];
    // A job named by the first characters of its id, as `varia import list` prints it.
    const byPrefix = runVaria(["import", "status", `${listed[1]!.jobGuid.slice(0, 8)}…`], env);
    expect([byPrefix.status, byPrefix.stdout]).toEqual([
      0,
      "Job completed successfully: 2 lines imported from october.csv: all new\n",
    ]);
    expect(listed.map((j) => [j.rowsImported, j.rowsReplaced])).toEqual([
      [3, 2],
      [2, 0],
    ]);
  });

  it("writes the raw export with the byte order mark a spreadsheet needs, and uploads it back unchanged", () => {
    const out = join(files, "raw.csv");
    const exported = runVaria(["--json", "export", "raw", "-o", out], env);
    expect([exported.status, JSON.parse(exported.stdout).lines]).toEqual([0, 3]);
    const bytes = readFileSync(out);
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(bytes.toString("utf8")).toContain("Célestine Café");
    const again = runVaria(["import", "upload", out, "--wait", "--poll-interval", "0.2"], env);
    expect([again.status, again.stdout]).toEqual([
      0,
      "Job completed successfully: 3 lines imported from raw.csv: none new, 3 replacing stored lines of the same invoice and line number\n",
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
  it("revokes a token by the first characters of its id or of the token, refusing a prefix that names several", () => {
    const create = (name: string) => {
      const run = runVaria(["--json", "tokens", "create", name, "--ability", "Variance/Dashboard/View"], env);
      expect(run.status, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as { tokenID: string; tokenPrefix: string; token: string };
    };
    const ci = create("ci nightly");
    const bot = create("report bot");
    // Times as the other lists write them (2026-11-25 06:09 UTC), not an ISO stamp; unused: never.
    const table = runVaria(["tokens", "list"], env).stdout.split("\n");
    expect(table[0]).toMatch(/^ID +NAME +TOKEN +USER +LAST USED +IN FORCE +ABILITIES$/);
    expect(table.find((line) => line.includes("report bot"))).toMatch(
      / never +yes +Variance\/Dashboard\/View$/,
    );
    // The admin's token made with every ability: 'all', not the twelve spelled out.
    expect(table.find((line) => line.includes("cli test"))).toMatch(
      / \d{4}-\d\d-\d\d \d\d:\d\d UTC +yes +all$/,
    );
    // The shortest start of ci's id that no other live token's id shares, as a person would type it.
    const ids = (JSON.parse(runVaria(["--json", "tokens", "list"], env).stdout) as { tokenID: string }[]).map(
      (t) => t.tokenID,
    );
    let length = 4;
    while (ids.filter((id) => id.startsWith(ci.tokenID.slice(0, length))).length > 1) length++;
    const revoked = runVaria(["tokens", "revoke", `${ci.tokenID.slice(0, length)}…`], env);
    expect([revoked.status, revoked.stdout]).toEqual([0, `Revoked ${ci.tokenID} (ci nightly)\n`]);
    expect(runVaria(["whoami"], { ...env, VARIA_TOKEN: ci.token }).status).toBe(2);

    // "varia_" starts every token: refused, naming each it could be, and nothing revoked.
    const ambiguous = runVaria(["tokens", "revoke", "varia_"], env);
    expect(ambiguous.status).toBe(1);
    expect(ambiguous.stderr).toMatch(
      /^varia: 'varia_' names 2 tokens; give more characters of the one you mean:\n/,
    );
    expect(ambiguous.stderr).toContain(`  ${bot.tokenID}  report bot  ${bot.tokenPrefix}…`);
    expect(runVaria(["whoami"], { ...env, VARIA_TOKEN: bot.token }).status).toBe(0);
    // The token's own first characters, as the list's TOKEN column shows them.
    const byToken = runVaria(["--json", "tokens", "revoke", `${bot.tokenPrefix}…`], env);
    expect([byToken.status, JSON.parse(byToken.stdout)]).toEqual([0, { revoked: bot.tokenID }]);
    // A token revoking itself says so: the next command with it will be refused.
    const self = runVaria(
      ["--json", "tokens", "create", "rotated", "--ability", "Variance/Tokens/Manage"],
      env,
    );
    const rotated = JSON.parse(self.stdout) as { tokenID: string; token: string };
    const own = runVaria(["tokens", "revoke", rotated.tokenID.slice(0, 8)], {
      ...env,
      VARIA_TOKEN: rotated.token,
    });
    expect([own.status, own.stderr]).toEqual([
      0,
      "That was the token this command used (VARIA_TOKEN): varia's calls with it are refused from now on\n",
    ]);
    expect(runVaria(["tokens", "list"], { ...env, VARIA_TOKEN: rotated.token }).status).toBe(2);
    const gone = runVaria(["tokens", "revoke", bot.tokenID.slice(0, 8)], env);
    expect([gone.status, gone.stderr]).toEqual([
      2,
      `varia: No token '${bot.tokenID.slice(0, 8)}' (varia tokens list shows them)\n`,
    ]);
  });

  it("downloads a backup named by the first characters of its id", () => {
    const [newest] = JSON.parse(runVaria(["--json", "backups", "list"], env).stdout) as {
      backupID: string;
    }[];
    const out = join(files, "backup.json.gz");
    const run = runVaria(["backups", "download", newest!.backupID.slice(0, 8), "-o", out], env);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Wrote backup ${newest!.backupID} \\(`));
  });
  it("exits 0 for an empty list and 1, not 2, for months to compare that an empty organisation cannot default to", () => {
    const { token } = createTenant(serverEnv, "fresh");
    const fresh = cleanEnv({ VARIA_HOST: tenantUrl(server, "fresh"), VARIA_TOKEN: token });
    const periods = runVaria(["--json", "periods"], fresh);
    expect([periods.status, JSON.parse(periods.stdout)]).toEqual([0, { periods: [] }]);
    const noMonths = "No months with actual data yet: give --from and --to, or import data first";
    for (const args of [
      ["variance"],
      ["report", "run", "mrr-movements"],
      ["report", "export", "mrr-by-client", "-o", join(files, "m.csv")],
    ]) {
      const run = runVaria(args, fresh);
      expect([run.status, run.stderr], args.join(" ")).toEqual([1, `varia: ${noMonths}\n`]);
    }
    const json = runVaria(["--json", "variance"], fresh);
    expect([json.status, JSON.parse(json.stderr)]).toEqual([
      1,
      { error: { message: noMonths, exitCode: 1 } },
    ]);
    // Months given are answered: zeros, and a note that they hold no data.
    const given = runVaria(["--json", "variance", "--from", "2025-05", "--to", "2025-06"], fresh);
    expect([given.status, JSON.parse(given.stdout).totalTo]).toEqual([0, 0]);
    expect(given.stderr).toContain("No actual data in 2025-05 or 2025-06");
  });
  it("says before deleting a backup taken before an import which older backups could no longer be restored", () => {
    const backups = JSON.parse(runVaria(["--json", "backups", "list"], env).stdout) as {
      backupID: string;
      importFileName: string | null;
    }[];
    // raw.csv's was the last import: the two before it would have to undo it when restored.
    const beforeRaw = backups.find((b) => b.importFileName === "raw.csv")!;
    const asked = runVaria(["backups", "delete", beforeRaw.backupID], env);
    expect(asked.status).toBe(1);
    expect(asked.stderr).toMatch(
      /^varia: Deleting the backup of .* \(before the import of raw\.csv, 3 invoice lines\) means it can no longer be restored, and the 2 backups taken before earlier imports can then no longer be restored either, as restoring one would undo this import too; run again with --yes to delete it\n$/,
    );
    // As said: once it is gone, restoring an older one is refused and changes nothing.
    expect(runVaria(["backups", "delete", beforeRaw.backupID, "--yes"], env).status).toBe(0);
    const older = backups.find((b) => b.importFileName === "october.csv")!;
    const refused = runVaria(
      ["backups", "restore", older.backupID, "--yes", "--wait", "--poll-interval", "0.2"],
      env,
    );
    expect(refused.stderr).toContain(
      "This backup cannot be restored: the backup taken before a later import",
    );
    // The oldest costs nothing more.
    const oldest = backups.at(-1)!;
    expect(runVaria(["backups", "delete", oldest.backupID], env).stderr).toMatch(
      /means it can no longer be restored; run again with --yes to delete it\n$/,
    );
  });
});
