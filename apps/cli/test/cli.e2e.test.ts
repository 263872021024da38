import { type ChildProcess, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliBin, serverBin, startServer } from "./running-server";

describe("varia login and whoami against a running server", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "varia-cli-server-"));
  const configDir = mkdtempSync(join(tmpdir(), "varia-cli-config-"));
  const serverEnv = {
    ...process.env,
    VARIA_DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    DATABASE_URL: "",
    VARIA_SEED_DEMO: "false",
  };
  const cliEnv = { ...process.env, VARIA_CONFIG_DIR: configDir, VARIA_HOST: "", VARIA_TOKEN: "" };
  let server: { child: ChildProcess; url: string };
  let token: string;

  const varia = (args: string[], env = cliEnv) =>
    spawnSync(process.execPath, [cliBin, ...args], { env, encoding: "utf8", timeout: 60_000 });

  beforeAll(async () => {
    server = await startServer(serverEnv);
    const created = spawnSync(
      process.execPath,
      [
        serverBin,
        "token",
        "create",
        "--tenant",
        "demo",
        "--email",
        "admin@demo.example.com",
        "--name",
        "cli test",
      ],
      { env: serverEnv, encoding: "utf8" },
    );
    token = created.stdout.trim();
  });
  afterAll(() => {
    server?.child.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(configDir, { recursive: true, force: true });
  });

  it("logs in with a token from varia-server and stores it with mode 0600", () => {
    const login = varia(["login", "--host", server.url, "--token", token, "--json"]);
    expect(login.stderr).toBe("");
    expect(login.status).toBe(0);
    expect(JSON.parse(login.stdout)).toMatchObject({
      organisation: "Demo Company",
      user: "admin@demo.example.com",
    });
    expect(statSync(join(configDir, "config.json")).mode & 0o777).toBe(0o600);
  });

  it("prints the organisation and user with whoami --json", () => {
    const whoami = varia(["whoami", "--json"]);
    expect(whoami.status).toBe(0);
    expect(JSON.parse(whoami.stdout)).toMatchObject({
      host: server.url,
      organisation: { name: "Demo Company" },
      user: { email: "admin@demo.example.com", isAdmin: true },
    });
  });

  it("refuses a bad token with the server's answer on stderr and a non-zero exit", () => {
    const bad = varia(["whoami"], { ...cliEnv, VARIA_TOKEN: `${token}x` });
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain("Unauthorized");
    const refused = varia(["login", "--host", server.url, "--token", "varia_wrong", "--json"], {
      ...cliEnv,
      VARIA_CONFIG_DIR: mkdtempSync(join(tmpdir(), "varia-cli-other-")),
    });
    expect(refused.status).not.toBe(0);
  });

  it("says how to log in when nothing is configured", () => {
    const none = varia(["whoami"], {
      ...cliEnv,
      VARIA_CONFIG_DIR: mkdtempSync(join(tmpdir(), "varia-cli-none-")),
    });
    expect(none.status).toBe(1);
    expect(none.stderr).toContain("Not logged in: run `varia login`");
  });

  it("uploads a CSV and waits for the job with the import machine; a file with three bad rows fails listing all three", () => {
    const env = { ...cliEnv, VARIA_HOST: server.url, VARIA_TOKEN: token };
    const dir = mkdtempSync(join(tmpdir(), "varia-cli-import-"));
    const template = varia(["import", "template", "-o", join(dir, "template.csv")], env);
    expect(template.status).toBe(0);
    const good = varia(
      ["import", "upload", join(dir, "template.csv"), "--wait", "--poll-interval", "0.2", "--json"],
      env,
    );
    expect(good.status).toBe(0);
    expect(JSON.parse(good.stdout)).toMatchObject({ status: "Completed", rowsImported: 2 });
    const bad = join(dir, "bad.csv");
    writeFileSync(
      bad,
      [
        "InvoiceDate,InvoiceNumber,ClientCode,ItemCode,StockType,Quantity,Amount",
        "2025-13-01,A,C1,I1,Subscription,1,10",
        "2025-01-01,B,,I1,Subscription,1,10",
        "2025-01-01,C,C1,I1,Thing,1,10",
      ].join("\n"),
    );
    const failed = varia(["import", "upload", bad, "--wait", "--poll-interval", "0.2"], env);
    expect(failed.status).toBe(2);
    expect(failed.stdout).toContain("Job failed: The file has 3 invalid cells; nothing was imported");
    expect(failed.stdout).toContain("line 2, InvoiceDate: '2025-13-01' is not a date (YYYY-MM-DD)");
    expect(failed.stdout).toContain("line 3, ClientCode: is required");
    expect(failed.stdout).toContain("line 4, StockType: 'Thing' is not Subscription, Product or Hourly");
    expect(failed.stderr).toContain("Uploading bad.csv (");
    expect(failed.stderr).toContain("Checking on job status...");
    const exported = varia(
      ["export", "raw", "-o", join(dir, "raw.csv"), "--from", "2025-06", "--to", "2025-06", "--json"],
      env,
    );
    expect(exported.status).toBe(0);
    expect(JSON.parse(exported.stdout)).toMatchObject({ lines: 2 });
    const badMonth = varia(["export", "raw", "-o", join(dir, "x.csv"), "--from", "June"], env);
    expect(badMonth.status).toBe(1);
    expect(badMonth.stderr).toContain("Invalid --from 'June': expected YYYY-MM");
  });

  it("names a file it cannot upload, sending nothing", () => {
    const env = { ...cliEnv, VARIA_HOST: server.url, VARIA_TOKEN: token };
    const dir = mkdtempSync(join(tmpdir(), "varia-cli-import-"));
    const missing = varia(["import", "upload", join(dir, "missing.csv")], env);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain(`Cannot read ${join(dir, "missing.csv")}: no such file`);
    const directory = varia(["import", "upload", dir], env);
    expect(directory.status).toBe(1);
    expect(directory.stderr).toContain(`Cannot read ${dir}: not a file`);
  });
});
