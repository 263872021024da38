import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const bin = join(import.meta.dirname, "..", "bin", "varia-server.js");

function run(args: string[], env: NodeJS.ProcessEnv, input?: string) {
  return spawnSync(process.execPath, [bin, ...args], { env, input, encoding: "utf8", timeout: 60_000 });
}

/** Starts `varia-server start` and resolves with its first lines once it says where it runs. */
function start(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "start", "--port", "0"], { env });
    let output = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      output += chunk;
      if (/Sign in as .*\n/.test(output)) resolve({ child, output });
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("exit", (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
}

describe("varia-server and the embedded database's single owner", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "varia-bin-"));
  const env = { ...process.env, VARIA_DATA_DIR: dataDir, LOG_LEVEL: "silent", DATABASE_URL: "" };
  let server: { child: ChildProcess; output: string };

  beforeAll(async () => {
    server = await start(env);
  });
  afterAll(() => {
    server?.child.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("prints the demo admin's sign-in once on first start", () => {
    expect(server.output).toMatch(/Varia is running at http:\/\/localhost:\d+/);
    expect(server.output).toMatch(
      /Sign in as admin@demo\.example\.com with the password \S{20} \(shown only this once\)/,
    );
  });

  it("loads three years of demo data on first start, through the import path", {
    timeout: 90_000,
  }, async () => {
    expect(server.output).toMatch(/Loading three years of demo data \(import job [0-9a-f-]{36}\)/);
    const url = /running at (http:\/\/localhost:\d+)/.exec(server.output)?.[1];
    const token = run(
      ["token", "create", "--tenant", "demo", "--email", "admin@demo.example.com", "--name", "t"],
      env,
    );
    const headers = { authorization: `Bearer ${token.stdout.trim()}` };
    await vi.waitFor(
      async () => {
        const response = await fetch(`${url}/api/variance/VarianceOverview/ActualPeriods`, { headers });
        const periods = (await response.json()) as unknown[];
        expect(periods).toHaveLength(36);
        expect(periods[0]).toEqual({ yearNo: 2026, monthNo: 10 });
      },
      { timeout: 60_000, interval: 250 },
    );
    const again = run(["seed-demo", "--tenant", "demo", "--json"], env);
    expect(JSON.parse(again.stdout)).toMatchObject({ duplicate: true });
  });

  it("runs admin commands through the running server", () => {
    const org = run(
      [
        "org",
        "create",
        "--tenant",
        "acme",
        "--name",
        "Acme",
        "--admin-email",
        "ops@acme.example.com",
        "--json",
      ],
      env,
      "a long enough password\n",
    );
    expect(org.stderr).toBe("");
    expect(JSON.parse(org.stdout)).toMatchObject({ tenant: "acme", adminEmail: "ops@acme.example.com" });
    const token = run(
      ["token", "create", "--tenant", "acme", "--email", "ops@acme.example.com", "--name", "ci"],
      env,
    );
    expect(token.stdout.trim()).toMatch(/^varia_[\w-]{40,}$/);
  });

  it("refuses a second server and a migration while one holds the database, saying why", () => {
    const migrate = run(["migrate"], env);
    expect(migrate.status).not.toBe(0);
    expect(migrate.stderr).toMatch(/running server \(pid \d+\) holds the embedded database/);
    const duplicate = run(
      ["org", "create", "--tenant", "acme", "--name", "Again", "--admin-email", "x@acme.example.com"],
      env,
      "another long password\n",
    );
    expect(duplicate.status).not.toBe(0);
    expect(duplicate.stderr).toContain("An organisation with tenant 'acme' already exists");
  });
});

describe("varia-server stopping while a request is stuck", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "varia-stop-"));
  const env = {
    ...process.env,
    VARIA_DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    DATABASE_URL: "",
    VARIA_SEED_DEMO: "0",
    VARIA_SHUTDOWN_GRACE_MS: "500",
  };
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("ends within its grace when a client stops sending an upload half-way", {
    timeout: 60_000,
  }, async () => {
    const { child, output } = await start(env);
    const port = Number(/running at http:\/\/localhost:(\d+)/.exec(output)?.[1]);
    const token = run(
      ["token", "create", "--tenant", "demo", "--email", "admin@demo.example.com", "--name", "t"],
      env,
    ).stdout.trim();
    const socket = connect(port, "127.0.0.1");
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    socket.on("error", () => {});
    const head = '--x\r\nContent-Disposition: form-data; name="csv"; filename="a.csv"\r\n\r\nInvoiceDate,';
    socket.write(
      `POST /api/import/upload HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 1000000\r\n\r\n${head}`,
    );
    // The server is receiving the file: it has started writing it to disk.
    await vi.waitFor(() => expect(readdirSync(join(dataDir, "uploads")).length).toBeGreaterThan(0), {
      timeout: 10_000,
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    await closed;
  });
});
