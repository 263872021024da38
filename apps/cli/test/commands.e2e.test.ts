import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  cleanEnv,
  cliBin,
  createTenant,
  emptyServerEnv,
  type RunningServer,
  runVaria,
  startServer,
  stopServer,
  tenantUrl,
} from "./running-server";

/**
 * Every command of the built `varia`, run as a user runs it, against a real server: each with --json
 * and the shape of its answer pinned (strict schemas: a field added or renamed fails here first), and
 * the exit codes 1, 2 and 3 provoked for real.
 */
const jobStatus = z.enum(["Unknown", "Pending", "Running", "Completed", "Failed", "FailedPermanently"]);
const importJob = z
  .object({
    jobGuid: z.uuid(),
    kind: z.enum(["Import", "Connector", "Restore", "RebuildCube"]),
    status: jobStatus,
    fileName: z.string(),
    rowsImported: z.number().int().nullable(),
    rowsReplaced: z.number().int().nullable(),
    errors: z.array(z.object({ line: z.number().int(), column: z.string(), message: z.string() }).strict()),
    errorCount: z.number().int(),
    message: z.string().nullable(),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
  })
  .strict();
const sums = z.object({ positive: z.number(), negative: z.number() }).strict();
const client = z.object({ clientCode: z.string(), clientName: z.string(), value: z.number() }).strict();
const backup = z
  .object({
    backupID: z.uuid(),
    reason: z.enum(["BeforeImport", "OnDemand", "BeforeRestore"]),
    lineCount: z.number().int(),
    sizeBytes: z.number().int(),
    createdAt: z.string(),
    importFileName: z.string().nullable(),
    importJobGuid: z.uuid().nullable(),
  })
  .strict();

const shapes = {
  backup,
  backups: z.array(backup),
  deleted: z.object({ deleted: z.uuid() }).strict(),
  importJobs: z.array(
    z
      .object({
        jobGuid: z.string(),
        kind: z.string(),
        status: z.string(),
        fileName: z.string(),
        rowsImported: z.number().nullable(),
        rowsReplaced: z.number().nullable(),
        errorCount: z.number(),
        message: z.string().nullable(),
        createdAt: z.string(),
        finishedAt: z.string().nullable(),
        startedBy: z.string().nullable(),
      })
      .strict(),
  ),
  login: z
    .object({
      profile: z.string(),
      host: z.string(),
      organisation: z.string(),
      user: z.string(),
      configFile: z.string(),
    })
    .strict(),
  logout: z.object({ profile: z.string(), removed: z.literal(true), configFile: z.string() }).strict(),
  profiles: z
    .object({
      configFile: z.string(),
      active: z.string().nullable(),
      profiles: z.array(
        z
          .object({ name: z.string(), host: z.string(), tokenPrefix: z.string(), active: z.boolean() })
          .strict(),
      ),
    })
    .strict(),
  whoami: z
    .object({
      profile: z.string().nullable(),
      host: z.string(),
      organisation: z.object({ id: z.string(), name: z.string(), currency: z.string() }).strict(),
      user: z.object({ id: z.string(), name: z.string(), email: z.string(), isAdmin: z.boolean() }).strict(),
    })
    .strict(),
  periods: z.object({ periods: z.array(z.string().regex(/^\d{4}-\d{2}$/)) }).strict(),
  variance: z
    .object({
      dataType: z.enum(["Revenue", "Margin"]),
      periodFrom: z.string(),
      periodTo: z.string(),
      totalFrom: z.number(),
      totalTo: z.number(),
      byType: z
        .object({ Client: sums, Service: sums, Price: sums, Volume: sums, Usage: sums, Transfer: sums })
        .strict(),
      acquiredClients: z.array(client),
      lostClients: z.array(client),
    })
    .strict(),
  reportList: z.array(
    z
      .object({ reportID: z.string(), reportType: z.string(), name: z.string(), description: z.string() })
      .strict(),
  ),
  reportRun: z
    .object({
      reportID: z.string(),
      reportType: z.string(),
      name: z.string(),
      dataType: z.enum(["Revenue", "Margin"]),
      dateFrom: z.string().nullable(),
      dateTo: z.string().nullable(),
      columns: z.array(
        z
          .object({
            field: z.string(),
            header: z.string(),
            kind: z.enum(["money", "number", "percent", "text"]),
          })
          .strict(),
      ),
      rows: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))),
      rowCount: z.number().int(),
      startRow: z.number().int(),
      totals: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
      notes: z.array(z.string()),
    })
    .strict(),
  reportExport: z
    .object({ file: z.string(), bytes: z.number().int(), format: z.enum(["csv", "xlsx"]) })
    .strict(),
  upload: z.object({ jobGuid: z.uuid(), status: jobStatus, duplicate: z.boolean() }).strict(),
  importJob,
  /** `import upload --wait`: the job, and whether the file was uploaded before (nothing imported now). */
  uploadedJob: importJob.extend({ duplicate: z.boolean() }).strict(),
  templateFile: z.object({ file: z.string(), bytes: z.number().int() }).strict(),
  templateText: z.object({ fileName: z.string().nullable(), content: z.string() }).strict(),
  exportRaw: z.object({ file: z.string(), lines: z.number().int(), bytes: z.number().int() }).strict(),
  tokenList: z.array(
    z
      .object({
        tokenID: z.uuid(),
        name: z.string(),
        tokenPrefix: z.string(),
        userID: z.uuid(),
        userName: z.string(),
        abilities: z.array(
          z
            .object({
              moduleSystemName: z.string(),
              featureSystemName: z.string(),
              abilitySystemName: z.string(),
            })
            .strict(),
        ),
        abilitiesInForce: z.array(
          z
            .object({
              moduleSystemName: z.string(),
              featureSystemName: z.string(),
              abilitySystemName: z.string(),
            })
            .strict(),
        ),
        userDisabled: z.boolean(),
        createdAt: z.string(),
        lastUsedAt: z.string().nullable(),
      })
      .strict(),
  ),
  tokenRevoke: z.object({ revoked: z.uuid() }).strict(),
  connectionList: z.array(
    z
      .object({
        integrationGuid: z.uuid(),
        integrationType: z.enum(["Quickbooks", "Xero"]),
        connectedAt: z.string(),
        dataSources: z.array(
          z.object({ id: z.uuid(), name: z.string(), lastJobGuid: z.uuid().nullable() }).strict(),
        ),
        responsibleUserIDs: z.array(z.uuid()),
      })
      .strict(),
  ),
  jobQueued: z.object({ jobGuid: z.uuid() }).strict(),
  completion: z.object({ shell: z.enum(["bash", "zsh", "fish"]), script: z.string() }).strict(),
  error: z
    .object({
      error: z
        .object({
          message: z.string(),
          exitCode: z.number().int(),
          status: z.number().int().optional(),
          details: z.array(z.string()).optional(),
        })
        .strict(),
    })
    .strict(),
};

const csv = [
  "InvoiceDate,InvoiceNumber,LineNumber,ClientCode,ClientName,ItemCode,ItemName,StockType,Quantity,Amount,Salesperson",
  "2025-05-03,A-1,1,C001,Acme Dental,PRO,Pro plan,Subscription,5,500.00,Ann Lee",
  "2025-05-03,A-2,1,C002,Beta Foods,PRO,Pro plan,Subscription,2,200.00,Bob Ray",
  "2025-06-03,B-1,1,C001,Acme Dental,PRO,Pro plan,Subscription,6,600.00,Ann Lee",
  '2025-06-03,B-2,1,C003,"Gamma Labs, Inc.",SUP,Support hours,Hourly,3,150.00,Bob Ray',
  "",
].join("\n");

/** Runs a command on a pseudo-terminal (util-linux `script`), as a person at a terminal sees it. */
function onTerminal(args: string[], env: NodeJS.ProcessEnv) {
  const command = [process.execPath, cliBin, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(" ");
  const result = spawnSync("script", ["-qec", command, "/dev/null"], {
    env: { ...env, TERM: "xterm" },
    encoding: "utf8",
  });
  return { status: result.status, output: result.stdout };
}

describe("every varia command against a running server", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "varia-cli-commands-"));
  const work = mkdtempSync(join(tmpdir(), "varia-cli-commands-files-"));
  const home = mkdtempSync(join(tmpdir(), "varia-cli-home-"));
  const serverEnv = emptyServerEnv(dataDir);
  let server: RunningServer;
  let acme: { email: string; token: string };
  const env = cleanEnv({ HOME: home, VARIA_PROFILE: "acme" });
  /** Every output of every run, to check that the stored token is never printed back. */
  const outputs: string[] = [];

  const varia = (args: string[], extra: NodeJS.ProcessEnv = {}, input?: string) => {
    const run = runVaria(args, { ...env, ...extra }, input);
    outputs.push(run.stdout, run.stderr);
    return run;
  };
  /** Runs with --json, expects exit 0, and parses stdout with the pinned shape. */
  const json = <S extends z.ZodType>(
    shape: S,
    args: string[],
    extra: NodeJS.ProcessEnv = {},
    input?: string,
  ) => {
    const run = varia(["--json", ...args], extra, input);
    expect(run.status, run.stderr).toBe(0);
    return shape.parse(JSON.parse(run.stdout)) as z.output<S>;
  };
  const file = (name: string) => join(work, name);

  beforeAll(async () => {
    server = await startServer(serverEnv);
    acme = createTenant(serverEnv, "acme");
    writeFileSync(file("lines.csv"), csv);
  });
  afterAll(async () => {
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  it("login --profile (token from stdin), profiles, whoami and logout; the file 0600 under ~/.config/varia", () => {
    const host = tenantUrl(server, "acme");
    const login = json(shapes.login, ["login", "--host", host, "--with-token"], {}, `${acme.token}\n`);
    const configFile = join(home, ".config", "varia", "config.json");
    expect(login).toEqual({ profile: "acme", host, organisation: "acme Ltd", user: acme.email, configFile });
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, ".config", "varia")).mode & 0o777).toBe(0o700);

    const profiles = json(shapes.profiles, ["profiles"]);
    expect(profiles).toEqual({
      configFile,
      active: "acme",
      profiles: [{ name: "acme", host, tokenPrefix: `${acme.token.slice(0, 10)}…`, active: true }],
    });
    const table = varia(["profiles"]);
    expect(table.stdout).toMatch(/^\s+PROFILE\s+HOST\s+TOKEN$/m);
    expect(table.stdout).toContain(`*  acme     ${host}  ${acme.token.slice(0, 10)}…`);

    const whoami = json(shapes.whoami, ["whoami"]);
    expect(whoami).toMatchObject({
      profile: "acme",
      host,
      organisation: { name: "acme Ltd" },
      user: { email: acme.email, isAdmin: true },
    });

    json(shapes.login, ["--profile", "spare", "login", "--host", host, "--token", acme.token]);
    expect(json(shapes.logout, ["logout", "--profile", "spare"])).toEqual({
      profile: "spare",
      removed: true,
      configFile,
    });
    expect(json(shapes.profiles, ["profiles"]).profiles.map((p) => p.name)).toEqual(["acme"]);
    const again = varia(["logout", "--profile", "spare"]);
    expect(again.status).toBe(1);
    expect(again.stderr).toBe(`varia: No profile 'spare' in ${configFile}\n`);
  });

  it("import template, upload (bytes sent on a terminal, then the status labels), status", () => {
    expect(json(shapes.templateFile, ["import", "template", "-o", file("template.csv")])).toEqual({
      file: file("template.csv"),
      bytes: statSync(file("template.csv")).size,
    });
    const template = json(shapes.templateText, ["import", "template"]);
    // The file keeps the byte order mark a spreadsheet needs; the text printed does not carry it.
    expect(`\uFEFF${template.content.split("\n")[0]}`).toBe(
      readFileSync(file("template.csv"), "utf8").split("\n")[0],
    );
    expect(template.content.startsWith("InvoiceDate,")).toBe(true);

    const { duplicate, ...done } = json(shapes.uploadedJob, [
      "import",
      "upload",
      file("lines.csv"),
      "--wait",
      "--poll-interval",
      "0.2",
    ]);
    expect(duplicate).toBe(false);
    expect(done).toMatchObject({
      status: "Completed",
      rowsImported: 4,
      fileName: "lines.csv",
      errorCount: 0,
    });
    expect(json(shapes.importJob, ["import", "status", done.jobGuid])).toEqual(done);
    // The same file again is a no-op, answered with the job it was.
    expect(json(shapes.upload, ["import", "upload", file("lines.csv")])).toEqual({
      jobGuid: done.jobGuid,
      status: "Completed",
      duplicate: true,
    });

    // Without --wait, the job as queued: here one line again as it was, which changes nothing.
    writeFileSync(file("same.csv"), csv.split("\n").slice(0, 2).join("\n"));
    const queued = json(shapes.upload, ["import", "upload", file("same.csv")]);
    expect(queued.duplicate).toBe(false);

    // Logs of CI see the notes; a terminal sees the bytes sent, then each status label.
    const logged = varia(["import", "upload", file("lines.csv"), "--wait", "--idempotency-key", "again"]);
    expect(logged.status).toBe(0);
    expect(logged.stderr).toContain("Uploading lines.csv (");
    expect(logged.stderr).not.toContain("\r");
    const terminal = onTerminal(
      ["import", "upload", file("lines.csv"), "--wait", "--poll-interval", "0.2", "--idempotency-key", "tty"],
      env,
    );
    expect(terminal.status).toBe(0);
    expect(terminal.output).toContain(
      `Uploading lines.csv: ${csv.length} bytes of ${csv.length} bytes (100%)`,
    );
    expect(terminal.output).toContain("Checking on job status...");
    expect(terminal.output).toMatch(/Job completed successfully: 4 lines imported from lines\.csv/);
    const quiet = varia([
      "--quiet",
      "import",
      "upload",
      file("lines.csv"),
      "--wait",
      "--idempotency-key",
      "q",
    ]);
    expect(quiet.stderr).toBe("");
    expect(quiet.stdout).toContain("Job completed successfully");

    // The latest imports, newest first: the upload above last.
    const listed = json(shapes.importJobs, ["import", "list", "--limit", "2"]);
    expect(listed.length).toBe(2);
    expect(listed[1]!.createdAt <= listed[0]!.createdAt).toBe(true);
    const all = json(shapes.importJobs, ["import", "list"]);
    expect(all.map((j) => j.jobGuid)).toContain(done.jobGuid);
    expect(all.find((j) => j.jobGuid === done.jobGuid)).toMatchObject({
      status: "Completed",
      rowsImported: 4,
      fileName: "lines.csv",
    });
    const table = varia(["import", "list", "--limit", "1"]);
    expect(table.status).toBe(0);
    const [head, row] = table.stdout.trimEnd().split("\n");
    expect(head!.split(/\s{2,}/)).toEqual([
      "JOB",
      "QUEUED",
      "KIND",
      "FILE OR SOURCE",
      "BY",
      "STATUS",
      "RESULT",
    ]);
    expect(row).toMatch(
      new RegExp(
        `^${listed[0]!.jobGuid}\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\s+Upload\\s+lines\\.csv\\s+.+\\s+Completed\\s+4 lines$`,
      ),
    );
    const tooMany = varia(["import", "list", "--limit", "101"]);
    expect(tooMany.status).toBe(1);
    expect(tooMany.stderr).toContain("--limit");
  });

  it("connections list, show and import; jobs add RebuildCube, followed to its end", () => {
    // This organisation signed up with a password: it has no connection (e2e/sign-up.test.ts has
    // the providers' stand-ins that make one).
    expect(json(shapes.connectionList, ["connections", "list"])).toEqual([]);
    expect(varia(["connections", "list"]).stdout).toContain("No connections");
    const unknown = "8d7e3f3c-7a51-4a7e-9d2b-3f0c2a1b4c5d";
    const show = varia(["connections", "show", unknown]);
    expect([show.status, show.stderr.trim()]).toEqual([
      2,
      `varia: No such connection (HTTP 404 from /api/Connections/${unknown}/GetConnectionByGuid)`,
    ]);
    const start = varia(["connections", "import", unknown, "--wait"]);
    expect([start.status, start.stderr.trim()]).toEqual([
      2,
      "varia: No such connection (HTTP 404 from /api/ImportJob/StartImport)",
    ]);

    const rebuilt = json(shapes.importJob, [
      "jobs",
      "add",
      "RebuildCube",
      "--wait",
      "--poll-interval",
      "0.2",
    ]);
    // The lines imported above: the four of lines.csv (same.csv replaced one of them with itself).
    expect(rebuilt).toMatchObject({
      kind: "RebuildCube",
      status: "Completed",
      fileName: "Rebuild the cube",
      rowsImported: 4,
    });
    expect(json(shapes.importJob, ["import", "status", rebuilt.jobGuid])).toEqual(rebuilt);
    // Said as what the job did, not as an import.
    const told = varia(["import", "status", rebuilt.jobGuid]);
    expect([told.status, told.stdout.trim()]).toEqual([
      0,
      "Job completed successfully: the cube rebuilt from the 4 lines stored",
    ]);
    const queued = json(shapes.jobQueued, ["jobs", "add", "RebuildCube"]);
    expect(queued.jobGuid).not.toBe(rebuilt.jobGuid);
    const bad = varia(["jobs", "add", "Reindex"]);
    expect([bad.status, bad.stderr.trim()]).toEqual([
      1,
      "varia: No maintenance job 'Reindex': one of RebuildCube",
    ]);
  });

  it("backups create, list, download, restore (said and refused without --yes, then followed) and delete", () => {
    const taken = json(shapes.backup, ["backups", "create"]);
    expect(taken).toMatchObject({
      reason: "OnDemand",
      lineCount: 4,
      importFileName: null,
      importJobGuid: null,
    });
    const listed = json(shapes.backups, ["backups", "list"]);
    expect(listed[0]).toEqual(taken);
    expect(listed.some((b) => b.reason === "BeforeImport" && b.importFileName === "lines.csv")).toBe(true);
    const [head, first] = varia(["backups", "list"]).stdout.split("\n");
    expect(head!.split(/\s{2,}/)).toEqual(["ID", "TAKEN", "WHY", "LINES", "SIZE"]);
    expect(first).toMatch(
      new RegExp(
        `^${taken.backupID}\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC\\s+made by hand\\s+4\\s+\\d`,
      ),
    );

    const saved = json(shapes.templateFile, [
      "backups",
      "download",
      taken.backupID,
      "-o",
      file("backup.json.gz"),
    ]);
    expect(saved).toEqual({ file: file("backup.json.gz"), bytes: statSync(file("backup.json.gz")).size });
    expect(saved.bytes).toBeGreaterThan(0);
    expect(readFileSync(file("backup.json.gz")).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));

    // Without --yes: what it replaces and undoes, and nothing done.
    const said = varia(["backups", "restore", taken.backupID]);
    expect(said.status).toBe(1);
    expect(said.stderr).toContain("no import or restore has been made since it was taken");
    expect(said.stderr).toContain("Run again with --yes to restore");
    expect(json(shapes.backups, ["backups", "list"])).toEqual(listed);
    const restored = json(shapes.importJob, [
      "backups",
      "restore",
      taken.backupID,
      "--yes",
      "--wait",
      "--poll-interval",
      "0.2",
    ]);
    expect(restored).toMatchObject({ kind: "Restore", status: "Completed", rowsImported: 4 });
    const before = json(shapes.backups, ["backups", "list"]).find((b) => b.reason === "BeforeRestore")!;
    expect(varia(["backups", "delete", before.backupID]).status).toBe(1);
    expect(json(shapes.deleted, ["backups", "delete", before.backupID, "--yes"])).toEqual({
      deleted: before.backupID,
    });
    expect(json(shapes.backups, ["backups", "list"]).map((b) => b.backupID)).not.toContain(before.backupID);
    const unknown = varia(["backups", "restore", "6f1c2d3e-0000-4000-8000-000000000000", "--yes"]);
    expect([unknown.status, unknown.stderr.trim()]).toEqual([
      2,
      "varia: No backup '6f1c2d3e-0000-4000-8000-000000000000' (varia backups list shows them)",
    ]);
  });

  it("periods, variance and reports: clients and services by code or name, money in the currency", () => {
    expect(json(shapes.periods, ["periods"])).toEqual({ periods: ["2025-06", "2025-05"] });
    expect(varia(["periods"]).stdout).toBe("2025-06  Jun 2025\n2025-05  May 2025\n");

    const variance = json(shapes.variance, ["variance"]);
    expect(variance).toMatchObject({
      periodFrom: "2025-05",
      periodTo: "2025-06",
      totalFrom: 700,
      totalTo: 750,
      acquiredClients: [{ clientCode: "C003", clientName: "Gamma Labs, Inc.", value: 150 }],
      lostClients: [{ clientCode: "C002", clientName: "Beta Foods", value: -200 }],
    });
    const byName = json(shapes.variance, [
      "variance",
      "--client",
      "acme dental",
      "--from",
      "May-2025",
      "--to",
      "06/2025",
    ]);
    expect(byName).toEqual(json(shapes.variance, ["variance", "--client", "C001"]));
    expect([byName.totalFrom, byName.totalTo, byName.byType.Volume.positive]).toEqual([500, 600, 100]);

    const currency = json(shapes.whoami, ["whoami"]).organisation.currency;
    const money = (n: number) =>
      new Intl.NumberFormat("en-US", {
        style: "currency",
        currency,
        currencyDisplay: "narrowSymbol",
        minimumFractionDigits: 2,
      }).format(n);
    const table = varia(["variance"]).stdout;
    expect(table).toMatch(new RegExp(`^Revenue 2025-05\\s+${regexText(money(700))}$`, "m"));
    expect(table).toMatch(new RegExp(`^Revenue 2025-06\\s+${regexText(money(750))}$`, "m"));
    expect(table).toMatch(new RegExp(`^  C003  Gamma Labs, Inc\\.  ${regexText(money(150))}$`, "m"));
    expect(table).toMatch(new RegExp(`^  C002  Beta Foods\\s+${regexText(money(-200))}$`, "m"));
    // Colours on a terminal only, never with NO_COLOR.
    expect(table).not.toContain("\u001b[");
    expect(onTerminal(["variance"], env).output).toContain(`\u001b[32m${money(150)}\u001b[39m`);
    expect(onTerminal(["variance"], { ...env, NO_COLOR: "1" }).output).not.toContain("\u001b[");

    const reports = json(shapes.reportList, ["report", "list"]);
    expect(reports.map((r) => r.reportID)).toContain("lost-clients");
    const lost = json(shapes.reportRun, ["report", "run", "lost-clients"]);
    expect(lost.rows.map((r) => [r.clientCode, r.clientName])).toEqual([["C002", "Beta Foods"]]);
    const byService = json(shapes.reportRun, ["report", "run", "mrr-by-client", "--item", "Support hours"]);
    expect(byService.rows.map((r) => r.clientCode)).toEqual(["C003"]);
    expect(varia(["report", "run", "lost-clients"]).stdout).toMatch(/^C002\s+Beta Foods\s+Bob Ray\s+/m);
    expect(varia(["report", "run", "lost-clients", "--client", "C001"]).stdout).toBe(
      "Lost clients, Revenue 2025-05 to 2025-06\n\nNo rows: nothing matches these months and filters\n",
    );

    const exported = json(shapes.reportExport, ["report", "export", "mrr-by-client", "-o", file("mrr.csv")]);
    expect(exported).toEqual({ file: file("mrr.csv"), bytes: statSync(file("mrr.csv")).size, format: "csv" });
    const workbook = varia(["report", "export", "mrr-by-client", "-o", file("mrr.xlsx")]);
    const size = statSync(file("mrr.xlsx")).size;
    expect(workbook.stdout).toBe(
      `Wrote mrr-by-client (XLSX, ${size.toLocaleString("en-US")} bytes, ${(size / 1024).toFixed(1)} KiB) to ${file("mrr.xlsx")}\n`,
    );

    const raw = json(shapes.exportRaw, ["export", "raw", "-o", file("raw.csv")]);
    expect(raw).toEqual({ file: file("raw.csv"), lines: 4, bytes: statSync(file("raw.csv")).size });
    const june = varia([
      "export",
      "raw",
      "-o",
      file("june.csv"),
      "--from",
      "2025-06",
      "--client",
      "Gamma Labs, Inc.",
    ]);
    expect(june.stdout).toMatch(/^Wrote 1 invoice lines \([\d,]+ bytes\) to .*june\.csv$/m);
    // No --data-type: the lines hold Amount, Cost and Margin whichever the measure, so it would change nothing.
    const measured = varia(["export", "raw", "-o", file("margin.csv"), "--data-type", "Margin"]);
    expect([measured.status, measured.stderr.split("\n")[0]]).toEqual([
      1,
      "varia: unknown option '--data-type'",
    ]);
  });

  it("-o - writes the file alone to stdout, its result to stderr; a binary file not to a terminal", () => {
    /** A run whose stdout is kept as bytes, as a pipe receives them. */
    const piped = (args: string[]) => {
      const run = spawnSync(process.execPath, [cliBin, ...args], { env, timeout: 120_000 });
      const stderr = run.stderr.toString();
      outputs.push(stderr);
      return { status: run.status, stdout: run.stdout, stderr };
    };
    const backupID = json(shapes.backups, ["backups", "list"])[0]!.backupID;
    const commands: [string[], string, RegExp][] = [
      [["export", "raw"], "raw.csv", /^Wrote 4 invoice lines \(([\d,]+) bytes\) to stdout\n$/],
      [["import", "template"], "template.csv", /^Saved the template to stdout\n$/],
      [
        ["backups", "download", backupID],
        "backup.json.gz",
        /^Wrote backup \S+ \(([\d,]+) bytes(, [\d.]+ KiB)?\) to stdout\n$/,
      ],
    ];
    for (const [args, name, note] of commands) {
      const out = piped([...args, "-o", "-"]);
      expect(out.status, out.stderr).toBe(0);
      expect(out.stderr).toMatch(note);
      expect(varia([...args, "-o", file(`saved-${name}`)]).status).toBe(0);
      expect(out.stdout.equals(readFileSync(file(`saved-${name}`))), name).toBe(true);
      const bytes = note.exec(out.stderr)?.[1];
      if (bytes) expect(Number(bytes.replaceAll(",", ""))).toBe(out.stdout.length);
    }
    // A workbook is made anew each time: its bytes are the size said, and a zip.
    const workbook = piped(["report", "export", "mrr-by-client", "--format", "xlsx", "-o", "-"]);
    expect(workbook.status, workbook.stderr).toBe(0);
    expect(workbook.stdout.subarray(0, 4)).toEqual(Buffer.from("PK\x03\x04", "latin1"));
    expect(workbook.stderr).toBe(
      `Wrote mrr-by-client (XLSX, ${workbook.stdout.length.toLocaleString("en-US")} bytes, ${(workbook.stdout.length / 1024).toFixed(1)} KiB) to stdout\n`,
    );
    // With --json the result is on stderr as well; with --quiet, only the file.
    const asJson = piped(["--json", "export", "raw", "-o", "-"]);
    expect(JSON.parse(asJson.stderr)).toEqual({ file: "-", lines: 4, bytes: asJson.stdout.length });
    const quiet = piped(["--quiet", "export", "raw", "-o", "-"]);
    expect([quiet.stderr, quiet.stdout.equals(asJson.stdout)]).toEqual(["", true]);

    // On a terminal: a binary file is refused before any call, a CSV is shown.
    for (const args of [
      ["report", "export", "mrr-by-client", "-o", "-", "--format", "xlsx"],
      ["backups", "download", backupID, "-o", "-"],
    ]) {
      const shown = onTerminal(args, { ...env, NO_COLOR: "1" });
      expect(shown.status).toBe(1);
      expect(shown.output).toMatch(
        /^varia: Not writing (an XLSX file|a gzip-compressed backup) to the terminal \(-o -\): redirect stdout/,
      );
    }
    const csvShown = onTerminal(["export", "raw", "-o", "-"], env);
    expect(csvShown.status).toBe(0);
    expect(csvShown.output).toContain("Gamma Labs, Inc.");
  });

  it("tokens list, create and revoke; completion scripts", () => {
    const creation = varia(["--json", "tokens", "create", "bot", "--ability", "Variance/Dashboard/View"]);
    expect(creation.status, creation.stderr).toBe(0);
    const created = JSON.parse(creation.stdout);
    const list = json(shapes.tokenList, ["tokens", "list"]);
    expect(list.find((t) => t.tokenID === created.tokenID)?.abilities).toEqual([
      { moduleSystemName: "Variance", featureSystemName: "Dashboard", abilitySystemName: "View" },
    ]);
    expect(json(shapes.tokenRevoke, ["tokens", "revoke", created.tokenID])).toEqual({
      revoked: created.tokenID,
    });
    for (const shell of ["bash", "zsh", "fish"] as const) {
      const completion = json(shapes.completion, ["completion", shell]);
      expect(completion.shell).toBe(shell);
      expect(completion.script).toBe(varia(["completion", shell]).stdout);
    }
  });

  it("exit 1 for a usage error, naming the flag, before any call", () => {
    const badMonth = varia(["variance", "--from", "June"]);
    expect(badMonth.status).toBe(1);
    expect(badMonth.stderr).toContain(
      "varia: option '--from <month>' argument 'June' is invalid. expected a month such as 2025-06",
    );
    const badType = varia(["variance", "--data-type", "Profit"]);
    expect(badType.status).toBe(1);
    expect(badType.stderr).toContain("argument 'Profit' is invalid");
    expect(varia(["--nope", "whoami"]).status).toBe(1);
    expect(varia(["smoke"]).stderr).toContain("varia: Name the tenants to check");
    const none = varia(["whoami"], { VARIA_PROFILE: "", HOME: mkdtempSync(join(tmpdir(), "varia-empty-")) });
    expect(none.status).toBe(1);
    expect(none.stderr).toContain("varia: Not logged in: run `varia login`");
    const unknown = varia(["whoami"], { VARIA_PROFILE: "nobody" });
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain("varia: No profile 'nobody' in");
    expect(varia(["report", "run", "nope"]).stderr).toContain(
      "varia: Unknown report 'nope'. Reports: mrr-by-client",
    );
  });

  it("a usage error points to the help of the command given wrongly and says what was expected; help says defaults in words", () => {
    expect(varia(["tokens", "create"]).stderr).toBe(
      "varia: missing required argument 'name'\n(varia tokens create --help lists its arguments and options)\n",
    );
    expect(varia(["variance", "--stock-type", "Rental"]).stderr).toMatch(
      /argument 'Rental' is invalid\. expected Subscription, Product, Hourly\.\n\(varia variance --help lists its options\)\n$/,
    );
    expect(varia(["report", "rerun"]).stderr).toMatch(/\(varia report --help lists its commands\)\n$/);
    expect(varia(["--nope"]).stderr).toMatch(/\(varia --help lists commands and options\)\n$/);
    // A default is said in words, never as commander's '(default: [])'.
    const help = varia(["tokens", "create", "--help"]).stdout.replace(/\s+/g, " ");
    expect(help).toContain("scope the token to this ability (repeatable) (default: every ability you hold)");
    expect(help).not.toContain("default: []");
    // Every bad value says what was expected, in the same words.
    for (const args of [
      ["--timeout", "0", "periods"],
      ["import", "upload", file("lines.csv"), "--wait", "--poll-interval", "soon"],
      ["jobs", "add", "RebuildCube", "--poll-interval", "-1"],
    ])
      expect(varia(args).stderr, args.join(" ")).toMatch(
        /^varia: option '--[a-z-]+ <seconds>' argument '[^']+' is invalid\. expected a number of seconds above 0\.\n/,
      );
  });

  it("exit 2 for a client, service or salesperson that is not there, listing those that contain the text", () => {
    const client = varia(["variance", "--client", "labs"]);
    expect([client.status, client.stderr]).toEqual([
      2,
      "varia: No client with the code or name 'labs'; 1 contains it:\n  C003  Gamma Labs, Inc.\n",
    ]);
    // Salespeople have names only.
    const salesperson = varia(["report", "run", "mrr-by-client", "--salesperson", "ann"]);
    expect([salesperson.status, salesperson.stderr]).toEqual([
      2,
      "varia: No salesperson named 'ann'; 1 contains it:\n  Ann Lee\n",
    ]);
    const service = varia(["--json", "export", "raw", "-o", file("none.csv"), "--item", "plan"]);
    expect(shapes.error.parse(JSON.parse(service.stderr))).toEqual({
      error: {
        message: "No service with the code or name 'plan'; 1 contains it:",
        exitCode: 2,
        details: ["PRO  Pro plan"],
      },
    });
  });

  it("notes on stderr a month compared that holds no actual data, and only then", () => {
    const early = varia(["variance", "--from", "2024-05", "--to", "2025-06"]);
    expect([early.status, early.stderr]).toEqual([
      0,
      "No actual data in 2024-05 (`varia periods` lists the months with data)\n",
    ]);
    const late = varia(["--json", "report", "run", "lost-clients", "--from", "2025-06", "--to", "2025-07"]);
    expect([late.status, late.stderr]).toEqual([
      0,
      "No actual data in 2025-07 (`varia periods` lists the months with data)\n",
    ]);
    expect(varia(["variance"]).stderr).toBe("");
    expect(varia(["--quiet", "variance", "--from", "2024-05", "--to", "2024-06"]).stderr).toBe("");
  });

  it("smoke --junit into a folder that does not exist is refused before any check runs", () => {
    const junit = file("no/such/smoke.xml");
    const run = varia(
      ["smoke", "--tenant", "ghost", "--host-pattern", "http://{tenant}.localhost:9", "--junit", junit],
      {
        VARIA_TOKEN_GHOST: "t",
      },
    );
    expect([run.status, run.stdout, run.stderr]).toEqual([
      1,
      "",
      `varia: Cannot write ${junit}: no such folder\n`,
    ]);
  });

  it("report export and export raw into a folder that does not exist are refused before the download", () => {
    // The server here cannot be reached: the folder is found missing before it is called.
    const nowhere = { VARIA_PROFILE: "", VARIA_HOST: "http://localhost:9", VARIA_TOKEN: "t" };
    for (const args of [
      ["export", "raw", "-o", file("no/such/raw.csv")],
      [
        "report",
        "export",
        "mrr-by-client",
        "--from",
        "2025-05",
        "--to",
        "2025-06",
        "-o",
        file("no/such/r.xlsx"),
      ],
    ]) {
      const run = varia(args, nowhere);
      expect([run.status, run.stderr], args.join(" ")).toEqual([
        1,
        `varia: Cannot write ${args.find((a) => a.includes("no/such"))}: no such folder\n`,
      ]);
    }
  });

  it("exit 1 for --from after --to, in every command that takes both, and for --from after the latest month", () => {
    // Not computed with every sign turned, nor written as an empty file.
    for (const args of [
      ["variance"],
      ["report", "run", "mrr-by-client"],
      ["report", "export", "mrr-by-client", "-o", file("swapped.csv")],
      ["export", "raw", "-o", file("swapped.csv")],
    ]) {
      const swapped = varia([...args, "--from", "2025-06", "--to", "2025-05"]);
      expect([swapped.status, swapped.stderr], args.join(" ")).toEqual([
        1,
        "varia: --from 2025-06 is after --to 2025-05\n",
      ]);
    }
    expect(existsSync(file("swapped.csv"))).toBe(false);
    const pastLatest = varia(["variance", "--from", "2025-07"]);
    expect([pastLatest.status, pastLatest.stderr]).toEqual([
      1,
      "varia: --from 2025-07 is after 2025-06, the latest month with actual data (the default of --to)\n",
    ]);
  });

  it("exit 1 for an option the report does not take, naming those it does, rather than dropping it", () => {
    for (const [args, refused] of [
      [["report", "run", "forecast", "--from", "2025-05"], "--from"],
      [
        ["report", "export", "cohort-retention", "--from", "2025-05", "--adhoc", "-o", file("c.csv")],
        "--from, --adhoc",
      ],
      [["report", "run", "lost-clients", "--segment", "item"], "--segment"],
    ] as const) {
      const run = varia([...args]);
      const [, , reportID] = args;
      expect([run.status, run.stderr.split(";")[0]], args.join(" ")).toEqual([
        1,
        `varia: ${reportID} does not take ${refused}`,
      ]);
    }
    expect(existsSync(file("c.csv"))).toBe(false);
    expect(varia(["report", "run", "forecast", "--to", "2025-05"]).stderr).toBe("");
    expect(varia(["report", "run", "revenue-by-segment", "--from", "2025-05"]).stderr).toBe(
      "varia: revenue-by-segment does not take --from; it takes --to, --data-type, --stock-type, --client, --item, --salesperson, --segment\n",
    );
  });

  it("exit 1 for an id argument that is not an id, named as the argument (not as a 400 of the API)", () => {
    for (const [args, what] of [
      [
        ["import", "status", "3f2"],
        "'3f2' is invalid for argument 'job'. expected a job id as `varia import upload` prints it, or its first 4 characters or more.",
      ],
      [
        ["connections", "show", "5c1d"],
        "'5c1d' is invalid for argument 'connection'. expected a connection's id as `varia connections list` prints it.",
      ],
      [
        ["tokens", "revoke", "0b7"],
        "'0b7' is invalid for argument 'tokenID'. expected a token's id as `varia tokens list` prints it, or its first 4 characters or more.",
      ],
    ] as const) {
      const run = varia([...args]);
      expect([run.status, run.stderr.split("\n")[0]]).toEqual([1, `varia: command-argument value ${what}`]);
    }
  });

  it("a command that fails while a call of its own is under way ends at once, not after that call's retries", () => {
    // report run asks for the profile (the currency) at once, then finds the report unknown: the
    // profile's call loses its connection as the command closes, and is not retried (1.5 s, 3 s).
    const started = performance.now();
    const unknown = varia(["report", "run", "nope"], {
      VARIA_PROFILE: "",
      VARIA_HOST: tenantUrl(server, "acme"),
      VARIA_TOKEN: acme.token,
    });
    expect([unknown.status, unknown.stderr]).toEqual([1, expect.stringContaining("Unknown report 'nope'")]);
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it("with --json, a usage error is one JSON document on stderr, as every other error", () => {
    const asJson = varia(["--json", "variance", "--from", "June"]);
    expect(asJson.status).toBe(1);
    expect(shapes.error.parse(JSON.parse(asJson.stderr))).toEqual({
      error: {
        message:
          "option '--from <month>' argument 'June' is invalid. expected a month such as 2025-06 (or 06/2025, Jun-2025).",
        exitCode: 1,
      },
    });
  });

  it("exit 1 for a VARIA_HOST that is not an address, not a server that cannot be reached", () => {
    const badHost = varia(["periods"], {
      VARIA_PROFILE: "",
      VARIA_HOST: "acme.example.com",
      VARIA_TOKEN: "t",
    });
    expect([badHost.status, badHost.stderr]).toEqual([
      1,
      "varia: Invalid VARIA_HOST 'acme.example.com': expected an address such as https://acme.example.com\n",
    ]);
  });

  it("upload --wait of a file already uploaded says that nothing is imported again", () => {
    const first = json(shapes.upload, ["import", "upload", file("lines.csv")]);
    expect(first.duplicate).toBe(true);
    const again = varia(["import", "upload", file("lines.csv"), "--wait", "--poll-interval", "0.2"]);
    expect(again.status).toBe(0);
    expect(again.stderr).toContain(
      `lines.csv was already uploaded as job ${first.jobGuid}: nothing is imported again; that job's status follows`,
    );
    expect(again.stderr).not.toContain("Uploaded lines.csv");
    // On stdout too, where a script or --quiet reads it, not as if this upload imported the lines.
    expect(again.stdout).toBe(
      `lines.csv was uploaded before, as job ${first.jobGuid}: nothing is imported again. What that upload did: Job completed successfully: 4 lines imported from lines.csv: all new\n`,
    );
    const asJson = varia([
      "--json",
      "import",
      "upload",
      file("lines.csv"),
      "--wait",
      "--poll-interval",
      "0.2",
    ]);
    expect([asJson.status, JSON.parse(asJson.stdout)]).toEqual([
      0,
      expect.objectContaining({
        jobGuid: first.jobGuid,
        status: "Completed",
        rowsImported: 4,
        duplicate: true,
      }),
    ]);
  });

  it("import template -o into a folder that does not exist says so, as the exports do", () => {
    const nowhere = varia(["import", "template", "-o", file("no/such/template.csv")]);
    expect([nowhere.status, nowhere.stderr]).toEqual([
      1,
      `varia: Cannot write ${file("no/such/template.csv")}: no such folder\n`,
    ]);
  });

  it("exit 2 when the server refuses: a token without the ability (403), a revoked token (401), a file with bad rows", () => {
    const scoped = varia([
      "tokens",
      "create",
      "viewer",
      "--ability",
      "Variance/Dashboard/View",
    ]).stdout.trim();
    const asViewer = { VARIA_PROFILE: "", VARIA_HOST: tenantUrl(server, "acme"), VARIA_TOKEN: scoped };
    expect(varia(["periods"], asViewer).status).toBe(0);
    const forbidden = varia(["tokens", "list"], asViewer);
    expect(forbidden.status).toBe(2);
    expect(forbidden.stderr).toBe(
      "varia: You do not have permission to do this: it needs the ability Variance/Tokens/Manage. (HTTP 403 from /api/variance/token)\n",
    );
    const forbiddenJson = varia(["--json", "tokens", "list"], asViewer);
    expect(forbiddenJson.status).toBe(2);
    expect(shapes.error.parse(JSON.parse(forbiddenJson.stderr))).toEqual({
      error: {
        message:
          "You do not have permission to do this: it needs the ability Variance/Tokens/Manage. (HTTP 403 from /api/variance/token)",
        exitCode: 2,
        status: 403,
      },
    });
    // --debug adds the stack, and still no token.
    const debug = varia(["--debug", "tokens", "list"], asViewer);
    expect(debug.stderr).toContain("ApiError: An unexpected server error occurred.");
    expect(debug.stderr).not.toContain(scoped);

    const id = json(shapes.tokenList, ["tokens", "list"]).find((t) => t.name === "viewer")!.tokenID;
    varia(["tokens", "revoke", id]);
    const revoked = varia(["whoami"], asViewer);
    expect(revoked.status).toBe(2);
    expect(revoked.stderr).toContain("varia: Unauthorized");

    writeFileSync(
      file("bad.csv"),
      [
        "InvoiceDate,InvoiceNumber,ClientCode,ItemCode,StockType,Quantity,Amount",
        "2025-13-01,A,C1,I1,Subscription,1,10",
        "2025-01-01,B,,I1,Subscription,1,10",
        "2025-01-01,C,C1,I1,Thing,1,10",
      ].join("\n"),
    );
    const rejected = varia(["import", "upload", file("bad.csv"), "--wait", "--poll-interval", "0.2"]);
    expect(rejected.status).toBe(2);
    expect(rejected.stdout).toBe("");
    expect(rejected.stderr).toContain("Job failed: The file has 3 invalid cells; nothing was imported");
    expect(rejected.stderr).toContain("line 2, InvoiceDate: '2025-13-01' is not a date (YYYY-MM-DD)");
    expect(rejected.stderr).toContain("line 3, ClientCode: is required");
    expect(rejected.stderr).toContain("line 4, StockType: 'Thing' is not Subscription, Product or Hourly");
    const job = json(shapes.upload, ["import", "upload", file("bad.csv")]).jobGuid;
    expect(varia(["import", "status", job]).status).toBe(2);

    const unknown = varia(["variance", "--client", "nobody"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toBe("varia: No client with the code or name 'nobody'\n");
    const missing = varia(["import", "upload", file("missing.csv")]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe(`varia: Cannot read ${file("missing.csv")}: no such file\n`);
  });

  it("exit 3 when the server does not answer within --timeout, and when it has stopped", async () => {
    server.child.kill("SIGSTOP");
    try {
      const started = performance.now();
      const late = varia(["--timeout", "0.3", "periods"]);
      expect(late.status).toBe(3);
      // What was waited for, and that the retries ran out.
      expect(late.stderr).toMatch(
        new RegExp(
          `^varia: ${regexText(tenantUrl(server, "acme"))} did not answer GET /api/\\S+ within 0\\.3 s \\(--timeout\\); tried 3 times, no more retries\n$`,
        ),
      );
      // A GET is tried three times (1.5 s and 3 s apart, 10% jitter) before the CLI gives up.
      expect(performance.now() - started).toBeGreaterThan(3 * 300 + 1350 + 2700);
      // A POST is sent once: the user is told so, as it may have been done.
      const once = varia(["--timeout", "0.3", "backups", "create"]);
      expect(once.status).toBe(3);
      expect(once.stderr).toMatch(
        new RegExp(
          `^varia: ${regexText(tenantUrl(server, "acme"))} did not answer (POST /api/\\S+) within 0\\.3 s \\(--timeout\\); \\1 is sent once, not retried: check whether it was done before running the command again\n$`,
        ),
      );
    } finally {
      server.child.kill("SIGCONT");
    }
    expect(varia(["periods"]).status).toBe(0);
    await stopServer(server);
    const stopped = varia(["whoami"]);
    expect(stopped.status).toBe(3);
    expect(stopped.stderr).toMatch(
      new RegExp(
        `^varia: Could not reach ${regexText(tenantUrl(server, "acme"))}: connection refused; tried \\d times, no more retries\n$`,
      ),
    );
  });

  it("never printed the stored token back, in any output or error", () => {
    expect(outputs.length).toBeGreaterThan(50);
    for (const output of outputs) expect(output).not.toContain(acme.token);
  });
});

function regexText(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
