import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cleanEnv,
  cliBin,
  createTenant,
  emptyServerEnv,
  type RunningServer,
  runVaria,
  runVariaAsync,
  startServer,
  stopServer,
  tenantUrl,
} from "./running-server";

/**
 * What a CI pipeline trips on with the built `varia` against a real server: a reader that stops
 * early (`| head`), a secret that is not set, a host whose path is wrong (the web app's page, or
 * another server's 404, where the API should answer), an output named for another format, and the
 * same file sent again after its job failed.
 */
const clients = 2000;
/** Two months of `clients` clients: a raw export and a report well beyond a pipe's buffer. */
const csv = [
  "InvoiceDate,InvoiceNumber,LineNumber,ClientCode,ClientName,ItemCode,ItemName,StockType,Quantity,Amount",
  ...["2025-05", "2025-06"].flatMap((month) =>
    Array.from(
      { length: clients },
      (_, i) =>
        `${month}-01,${month}-${i},1,C${i},Client number ${i} of a long list,PRO,Pro plan,Subscription,${1 + (i % 7)},${100 + i}.00`,
    ),
  ),
  "",
].join("\n");

/**
 * Runs the built CLI with stdout read by a reader that goes away after its first bytes, as `| head`
 * does; resolves with the exit code and stderr once the process has ended.
 */
function readFirstBytesOnly(args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ status: number | null; stderr: string; read: number }>((resolve, reject) => {
    const child = spawn(process.execPath, [cliBin, ...args], { env });
    let stderr = "";
    let read = 0;
    child.stdout.once("data", (chunk: Buffer) => {
      read = chunk.length;
      child.stdout.destroy();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stderr, read }));
  });
}

describe("varia in a pipeline, against a running server", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "varia-cli-pipelines-"));
  const work = mkdtempSync(join(tmpdir(), "varia-cli-pipelines-files-"));
  const serverEnv = emptyServerEnv(dataDir);
  let server: RunningServer;
  let env: NodeJS.ProcessEnv;
  let foreign: Server;
  let foreignOrigin = "";
  const file = (name: string) => join(work, name);

  beforeAll(async () => {
    server = await startServer(serverEnv);
    const { token } = createTenant(serverEnv, "acme");
    env = cleanEnv({
      VARIA_CONFIG_DIR: mkdtempSync(join(tmpdir(), "varia-cli-pipelines-config-")),
      VARIA_HOST: tenantUrl(server, "acme"),
      VARIA_TOKEN: token,
    });
    writeFileSync(file("lines.csv"), csv);
    const upload = runVaria(["import", "upload", file("lines.csv"), "--wait", "--poll-interval", "0.2"], env);
    expect(upload.status, upload.stderr).toBe(0);
    // Another program on the host's port: its 404 is plain text, with no message of Varia's.
    foreign = createServer((_request, response) => {
      response.writeHead(404, { "content-type": "text/plain" });
      response.end("404 page not found");
    });
    await new Promise<void>((resolve) => foreign.listen(0, "127.0.0.1", resolve));
    foreignOrigin = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await stopServer(server);
    await new Promise<void>((resolve) => foreign.close(() => resolve()));
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  it("a reader that stops early (| head) ends the command quietly, with its own exit code", async () => {
    for (const args of [
      ["export", "raw", "-o", "-"],
      ["--json", "report", "run", "mrr-by-client"],
    ]) {
      const run = await readFirstBytesOnly(args, env);
      expect(run.read).toBeGreaterThan(0);
      expect(run.stderr).not.toMatch(/EPIPE|node:events|at /);
      expect([run.status, args]).toEqual([0, args]);
    }
  });

  it("with VARIA_HOST and VARIA_TOKEN set, a broken profiles file is not read", () => {
    const folder = mkdtempSync(join(tmpdir(), "varia-cli-pipelines-broken-"));
    writeFileSync(join(folder, "config.json"), "{ half a file");
    const run = runVaria(["--json", "whoami"], { ...env, VARIA_CONFIG_DIR: folder });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ profile: null, host: tenantUrl(server, "acme") });
  });

  it("names the variable a pipeline left empty or unset, before any call", () => {
    const noToken = runVaria(["whoami"], { ...env, VARIA_TOKEN: "" });
    expect([noToken.status, noToken.stderr]).toEqual([
      1,
      "varia: VARIA_HOST is set but VARIA_TOKEN is empty: set VARIA_TOKEN to an API token, or use a stored profile (--profile or VARIA_PROFILE)\n",
    ]);
    const { VARIA_HOST: _host, ...withoutHost } = env;
    const noHost = runVaria(["--json", "variance"], withoutHost);
    expect(noHost.status).toBe(1);
    expect(JSON.parse(noHost.stderr)).toEqual({
      error: {
        message:
          "VARIA_TOKEN is set but VARIA_HOST is not set: set VARIA_HOST to the server's address, or use a stored profile (--profile or VARIA_PROFILE)",
        exitCode: 1,
      },
    });
  });

  it("a token of another organisation, or a revoked one, is said to be refused by the host, and why it may be", () => {
    const host = tenantUrl(server, "acme");
    const refused = `varia: Unauthorized: ${host} does not accept this API token (mistyped, revoked, or of another organisation: a token works on its own organisation's host only); check the host and the token (varia profiles), or varia login again\n`;
    const beta = createTenant(serverEnv, "beta");
    const elsewhere = runVaria(["whoami"], { ...env, VARIA_TOKEN: beta.token });
    expect([elsewhere.status, elsewhere.stderr]).toEqual([2, refused]);

    const created = JSON.parse(runVaria(["--json", "tokens", "create", "short-lived"], env).stdout) as {
      tokenID: string;
      token: string;
    };
    expect(runVaria(["tokens", "revoke", created.tokenID], env).status).toBe(0);
    const revoked = runVaria(["variance"], { ...env, VARIA_TOKEN: created.token });
    expect([revoked.status, revoked.stderr]).toEqual([2, refused]);
  });

  it("a host whose path is wrong is said to be no Varia API, and no web page is saved as the export", async () => {
    const wrongPath = `${tenantUrl(server, "acme")}/varia`;
    const said = (call: string, contentType: string) =>
      `varia: ${wrongPath} answered ${call} with a web page (${contentType}), not Varia's API: check the host, and the path Varia is served under if it has one\n`;
    const exported = runVaria(["export", "raw", "-o", file("raw.csv")], { ...env, VARIA_HOST: wrongPath });
    expect([exported.status, exported.stdout, exported.stderr]).toEqual([
      3,
      "",
      said("/api/variance/Data/ExportRawData", "text/html; charset=utf-8"),
    ]);
    expect(existsSync(file("raw.csv"))).toBe(false);
    const template = runVaria(["import", "template"], { ...env, VARIA_HOST: wrongPath });
    expect([template.status, template.stdout]).toEqual([3, ""]);
    const whoami = runVaria(["whoami"], { ...env, VARIA_HOST: wrongPath });
    expect([whoami.status, whoami.stderr]).toEqual([
      3,
      said("/api/Account/AuthorisedPing", "text/html; charset=utf-8"),
    ]);

    const other = await runVariaAsync(["whoami"], { ...env, VARIA_HOST: `${foreignOrigin}/varia` });
    expect([other.status, other.stderr]).toEqual([
      2,
      `varia: ${foreignOrigin}/varia answered /api/Account/AuthorisedPing with HTTP 404 Not Found, not Varia's API: check the host, and the path Varia is served under if it has one\n`,
    ]);
    // Varia's own 404 keeps its message.
    const job = runVaria(["import", "status", "00000000-0000-4000-8000-000000000000"], env);
    expect([job.status, job.stderr]).toEqual([
      2,
      "varia: No import job 00000000-0000-4000-8000-000000000000 (HTTP 404 from /api/Import/GetJobStatus)\n",
    ]);
  });

  it("refuses an output named for another format than the one written, before any call", () => {
    for (const [args, message] of [
      [
        ["export", "raw", "-o", file("lines.xlsx")],
        `${file("lines.xlsx")} names an XLSX workbook, but this writes a CSV file: the raw export is CSV only; name the file .csv`,
      ],
      [
        ["report", "export", "mrr-by-client", "-o", file("mrr.json")],
        `${file("mrr.json")} names a JSON file, but this writes a CSV file: for JSON, \`varia report run mrr-by-client --json > ${file("mrr.json")}\``,
      ],
      [
        ["report", "export", "mrr-by-client", "--format", "xlsx", "-o", file("mrr.csv")],
        `${file("mrr.csv")} names a CSV file, but this writes an XLSX workbook: name the file .csv or .xlsx, or give --format to match its name`,
      ],
    ] as const) {
      // An unreachable host: the name is refused before any call would fail.
      const run = runVaria([...args], { ...env, VARIA_HOST: "http://127.0.0.1:9" });
      expect([run.status, run.stderr]).toEqual([1, `varia: ${message}\n`]);
    }
    expect(
      existsSync(file("lines.xlsx")) || existsSync(file("mrr.json")) || existsSync(file("mrr.csv")),
    ).toBe(false);
    const xlsx = runVaria(["report", "export", "mrr-by-client", "-o", file("MRR.XLSX")], env);
    expect(xlsx.status, xlsx.stderr).toBe(0);
    expect(xlsx.stdout).toMatch(/^Wrote mrr-by-client \(XLSX, /);
  });

  it("import upload - reads the file from standard input, listed as stdin.csv or under --name", () => {
    const lines = (first: number, count: number) =>
      `InvoiceDate,InvoiceNumber,ClientCode,ItemCode,StockType,Quantity,Amount\n${Array.from(
        { length: count },
        (_, i) => `2025-07-01,P-${first + i},C${first + i},PRO,Subscription,1,10.00`,
      ).join("\n")}\n`;
    const piped = runVaria(
      ["--json", "import", "upload", "-", "--wait", "--poll-interval", "0.2"],
      env,
      lines(0, 3),
    );
    expect(piped.status, piped.stderr).toBe(0);
    expect(JSON.parse(piped.stdout)).toMatchObject({
      status: "Completed",
      rowsImported: 3,
      fileName: "stdin.csv",
    });
    const named = runVaria(
      ["import", "upload", "-", "--name", "july.csv", "--wait", "--poll-interval", "0.2"],
      env,
      lines(3, 2),
    );
    expect([named.status, named.stdout]).toEqual([
      0,
      "Job completed successfully: 2 lines imported from july.csv: all new\n",
    ]);
    const listed = JSON.parse(runVaria(["--json", "import", "list", "--limit", "2"], env).stdout) as {
      fileName: string;
    }[];
    expect(listed.map((job) => job.fileName)).toEqual(["july.csv", "stdin.csv"]);

    const badName = runVaria(["import", "upload", "-", "--name", "july.txt"], env, lines(5, 1));
    expect([badName.status, badName.stderr.split("\n")[0]]).toEqual([
      1,
      "varia: option '--name <file name>' argument 'july.txt' is invalid. expected a file name ending in .csv, such as lines-2025-06.csv.",
    ]);
  });

  it("the same file again after its job was refused says so, and what to do", () => {
    writeFileSync(
      file("bad.csv"),
      "InvoiceDate,InvoiceNumber,ClientCode,ItemCode,StockType,Quantity,Amount\n2025-13-01,X-1,C1,PRO,Subscription,1,10\n",
    );
    const first = runVaria(
      ["--json", "import", "upload", file("bad.csv"), "--wait", "--poll-interval", "0.2"],
      env,
    );
    expect(first.status).toBe(2);
    const jobGuid = JSON.parse(first.stdout).jobGuid as string;
    const again = runVaria(["import", "upload", file("bad.csv")], env);
    expect([again.status, again.stdout]).toEqual([
      0,
      `Already uploaded as job ${jobGuid} (Failed): nothing is imported again\n`,
    ]);
    expect(again.stderr).toContain(
      `That job was refused for the file's data: correct the file (\`varia import status ${jobGuid}\` lists its bad cells) and upload it again\n`,
    );
  });
});
