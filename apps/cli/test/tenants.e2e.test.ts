import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "junit2json";
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
  tokenFor,
} from "./running-server";

/**
 * Three tenants on one server, each reached at its own host with its own token: `varia smoke` over
 * them with one token revoked, and named profiles switched by flag and by environment.
 */
describe("tenants: varia smoke and profiles", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "varia-cli-tenants-"));
  const home = mkdtempSync(join(tmpdir(), "varia-cli-tenants-home-"));
  const serverEnv = emptyServerEnv(dataDir);
  let server: RunningServer;
  const tokens: Record<string, string> = {};
  const outputs: string[] = [];
  const env = cleanEnv({ HOME: home, XDG_CONFIG_HOME: join(home, "xdg") });
  const varia = (args: string[], extra: NodeJS.ProcessEnv = {}) => {
    const run = runVaria(args, { ...env, ...extra });
    outputs.push(run.stdout, run.stderr);
    return run;
  };
  const pattern = () => `http://{tenant}.localhost:${server.port}`;
  const tokenEnv = () => ({
    VARIA_TOKEN_DEMO: tokens.demo,
    VARIA_TOKEN_ACME: tokens.acme,
    VARIA_TOKEN_BETA_EU: tokens["beta-eu"],
  });

  beforeAll(async () => {
    server = await startServer(serverEnv);
    tokens.demo = tokenFor(serverEnv, "demo", "admin@demo.example.com");
    tokens.acme = createTenant(serverEnv, "acme").token;
    tokens["beta-eu"] = createTenant(serverEnv, "beta-eu").token;
  });
  afterAll(async () => {
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  it("passes three live tenants: exit 0, a table on a terminal's stdout, the JSON shape", () => {
    const args = ["smoke", "--tenant", "demo,acme,beta-eu", "--host-pattern", pattern()];
    const table = varia(args, tokenEnv());
    expect(table.status, table.stderr).toBe(0);
    expect(table.stdout).toMatch(
      /^TENANT\s+HOST\s+AuthorisedPing\s+PermissionPing\s+ActualPeriods\s+OverviewKpi\s+ReportList\s+RESULT$/m,
    );
    expect(table.stdout).toMatch(
      // A slow call reads '1,241 ms': the times are written with a thousands separator.
      new RegExp(
        `^beta-eu\\s+http://beta-eu\\.localhost:${server.port}(\\s+\\d{1,3}(,\\d{3})* ms){5}\\s+pass$`,
        "m",
      ),
    );
    expect(table.stdout).toContain("3 of 3 tenants passed");
    const json = JSON.parse(varia(["--json", ...args], tokenEnv()).stdout);
    expect(json).toMatchObject({ passed: true, maxMs: 2000 });
    expect(
      json.tenants.map((t: { tenant: string; organisation: string }) => [t.tenant, t.organisation]),
    ).toEqual([
      ["demo", "Demo Company"],
      ["acme", "acme Ltd"],
      ["beta-eu", "beta-eu Ltd"],
    ]);
    expect(Object.keys(json.tenants[0])).toEqual([
      "tenant",
      "host",
      "organisation",
      "passed",
      "ms",
      "checks",
    ]);
    expect(json.tenants[0].checks.map((c: { name: string }) => c.name)).toEqual([
      "Account/AuthorisedPing",
      "Account/PermissionPing",
      "VarianceOverview/ActualPeriods",
      "VarianceOverview/OverviewKpi",
      "Lookup/GetReportList",
    ]);
    expect(Object.keys(json.tenants[0].checks[0])).toEqual([
      "name",
      "passed",
      "outcome",
      "ms",
      "status",
      "message",
    ]);
  });

  it("fails a tenant whose token was revoked: exit 2, and a JUnit file with exactly one failing suite", async () => {
    const list = JSON.parse(
      varia(["--json", "tokens", "list"], {
        VARIA_HOST: tenantUrl(server, "beta-eu"),
        VARIA_TOKEN: tokens["beta-eu"],
      }).stdout,
    ) as { tokenID: string }[];
    const revoke = varia(["tokens", "revoke", list[0]!.tokenID], {
      VARIA_HOST: tenantUrl(server, "beta-eu"),
      VARIA_TOKEN: tokens["beta-eu"],
    });
    expect(revoke.status).toBe(0);

    const junit = join(home, "smoke.xml");
    const run = varia(
      [
        "smoke",
        "--tenant",
        "demo,acme,beta-eu",
        "--host-pattern",
        pattern(),
        "--junit",
        junit,
        "--concurrency",
        "2",
      ],
      tokenEnv(),
    );
    expect(run.status).toBe(2);
    expect(run.stdout).toContain("2 of 3 tenants passed");
    expect(run.stdout).toContain("beta-eu  AuthorisedPing: Unauthorized");

    const report = await parse(readFileSync(junit, "utf8"));
    const suites = (report as { testsuite?: { name?: string; failures?: number; testcase?: unknown[] }[] })
      .testsuite!;
    expect(suites.map((s) => s.name)).toEqual(["demo", "acme", "beta-eu"]);
    expect(suites.map((s) => s.testcase?.length)).toEqual([5, 5, 5]);
    const failing = suites.filter((s) => (s.failures ?? 0) > 0);
    expect(failing.map((s) => [s.name, s.failures])).toEqual([["beta-eu", 5]]);
    const cases = (
      failing[0] as { testcase: { name: string; failure?: { message?: string; type?: string }[] }[] }
    ).testcase;
    expect(cases[0]).toMatchObject({
      name: "Account/AuthorisedPing",
      failure: [{ type: "refused", message: expect.stringContaining("Unauthorized") }],
    });
    expect(report).toMatchObject({ name: "varia smoke", tests: 15, failures: 5 });
  });

  it("fails calls over --max-ms with exit 3, and names a tenant without a token before calling", () => {
    const slow = JSON.parse(
      varia(["--json", "smoke", "--tenant", "acme", "--host-pattern", pattern(), "--max-ms", "1"], tokenEnv())
        .stdout,
    );
    expect(slow.passed).toBe(false);
    const failed = slow.tenants[0].checks.filter((c: { passed: boolean }) => !c.passed);
    expect(failed.length).toBeGreaterThan(0);
    for (const check of failed) {
      expect(check.outcome).toBe("slow");
      expect(check.message).toMatch(/^took [\d,]+ ms, over the budget of 1 ms$/);
    }
    expect(
      varia(["smoke", "--tenant", "acme", "--host-pattern", pattern(), "--max-ms", "1"], tokenEnv()).status,
    ).toBe(3);
    const missing = varia(["smoke", "--tenant", "acme,gamma", "--host-pattern", pattern()], tokenEnv());
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe(
      "varia: No API token for gamma (set VARIA_TOKEN_GAMMA or run `varia login --profile gamma`)\n",
    );
  });

  it("switches between two profiles by --profile and by VARIA_PROFILE; --profile is the strongest", () => {
    for (const tenant of ["demo", "acme"]) {
      const login = varia([
        "login",
        "--profile",
        tenant,
        "--host",
        tenantUrl(server, tenant),
        "--token",
        tokens[tenant]!,
      ]);
      expect(login.status, login.stderr).toBe(0);
    }
    const configFile = join(home, "xdg", "varia", "config.json");
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    const organisation = (args: string[], extra: NodeJS.ProcessEnv = {}) => {
      const run = varia(["--json", ...args, "whoami"], extra);
      expect(run.status, run.stderr).toBe(0);
      return JSON.parse(run.stdout).organisation.name as string;
    };
    expect(organisation(["--profile", "acme"])).toBe("acme Ltd");
    expect(organisation(["--profile", "demo"])).toBe("Demo Company");
    expect(organisation([], { VARIA_PROFILE: "acme" })).toBe("acme Ltd");
    expect(organisation([], { VARIA_PROFILE: "demo" })).toBe("Demo Company");
    // --profile over VARIA_PROFILE, and a profile over VARIA_HOST and VARIA_TOKEN.
    expect(organisation(["--profile", "demo"], { VARIA_PROFILE: "acme" })).toBe("Demo Company");
    const envTarget = { VARIA_HOST: tenantUrl(server, "acme"), VARIA_TOKEN: tokens.acme };
    expect(organisation([], { ...envTarget, VARIA_PROFILE: "demo" })).toBe("Demo Company");
    expect(organisation([], envTarget)).toBe("acme Ltd");
    // Smoke over the profiles' own hosts and tokens.
    const smoke = JSON.parse(varia(["--json", "--profile", "demo,acme", "smoke"]).stdout);
    expect(smoke.tenants.map((t: { tenant: string; passed: boolean }) => [t.tenant, t.passed])).toEqual([
      ["demo", true],
      ["acme", true],
    ]);
    const stored = JSON.parse(readFileSync(configFile, "utf8"));
    expect(Object.keys(stored.profiles)).toEqual(["demo", "acme"]);
    const shown = varia(["profiles"], { VARIA_PROFILE: "acme" }).stdout;
    expect(shown).toContain(`${tokens.acme!.slice(0, 10)}…`);
  });

  it("printed no token in any output or error", () => {
    expect(outputs.length).toBeGreaterThan(20);
    for (const output of outputs)
      for (const token of Object.values(tokens)) expect(output).not.toContain(token);
  });
});
