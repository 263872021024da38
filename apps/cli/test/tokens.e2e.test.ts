import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliBin, type RunningServer, serverBin, startServer, tenantUrl } from "./running-server";

describe("varia tokens list|create|revoke against a running server", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "varia-cli-tokens-"));
  const serverEnv = { ...process.env, VARIA_DATA_DIR: dataDir, LOG_LEVEL: "silent", DATABASE_URL: "" };
  let server: RunningServer;
  let adminToken: string;

  const varia = (args: string[], token = adminToken) =>
    spawnSync(process.execPath, [cliBin, ...args], {
      env: {
        ...process.env,
        VARIA_CONFIG_DIR: mkdtempSync(join(tmpdir(), "varia-cli-tokens-config-")),
        VARIA_PROFILE: "",
        VARIA_HOST: tenantUrl(server, "demo"),
        VARIA_TOKEN: token,
      },
      encoding: "utf8",
      timeout: 60_000,
    });

  beforeAll(async () => {
    server = await startServer(serverEnv);
    adminToken = spawnSync(
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
        "admin",
      ],
      { env: serverEnv, encoding: "utf8" },
    ).stdout.trim();
  });
  afterAll(() => {
    server?.child.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("creates a scoped token printed once, lists it without the secret, and revokes it", () => {
    const created = varia(["tokens", "create", "reports bot", "--ability", "Variance/Dashboard/View"]);
    expect(created.status).toBe(0);
    const token = created.stdout.trim();
    expect(token).toMatch(/^varia_[A-Za-z0-9_-]+$/);
    expect(created.stderr).toContain("shown only this once");

    const list = varia(["tokens", "list", "--json"]);
    expect(list.status).toBe(0);
    const tokens = JSON.parse(list.stdout) as { tokenID: string; name: string; abilities: unknown[] }[];
    const listed = tokens.find((t) => t.name === "reports bot")!;
    expect(listed.abilities).toEqual([
      { moduleSystemName: "Variance", featureSystemName: "Dashboard", abilitySystemName: "View" },
    ]);
    expect(list.stdout).not.toContain(token);

    // The scoped token signs in, but may not manage tokens.
    expect(varia(["whoami", "--json"], token).status).toBe(0);
    const refused = varia(["tokens", "list"], token);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain(
      "You do not have permission to do this: it needs the ability Variance/Tokens/Manage.",
    );

    const revoked = varia(["tokens", "revoke", listed.tokenID]);
    expect(revoked.status).toBe(0);
    expect(varia(["whoami"], token).status).not.toBe(0);
  });

  it("refuses an unknown ability before calling the server", () => {
    const bad = varia(["tokens", "create", "x", "--ability", "Variance/Nothing/Here"]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain("Unknown ability 'Variance/Nothing/Here'");
  });
});
