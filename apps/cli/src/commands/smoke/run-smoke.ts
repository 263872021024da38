import { constants } from "node:fs";
import { access, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { CommandContext } from "../../context";
import { exitCodes } from "../../errors/exit-codes";
import { agentFor, clientFor } from "../../http/client";
import { formatMs } from "../../output/format";
import { formatTable } from "../../output/table";
import { cannotWrite } from "../../transfer/download-to";
import { checkTenant, type TenantResult, tenantPassed } from "./check-tenant";
import { junitReport } from "./junit-report";
import { type SmokeTarget, smokeTargets } from "./smoke-targets";

interface SmokeOptions {
  tenant?: string;
  hostPattern?: string;
  maxMs: number;
  concurrency: number;
  junit?: string;
}

/** Runs `work` over `items`, at most `limit` at once, keeping their order in the answer. */
async function pooled<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The stable JSON of a smoke test (`varia smoke --json`). */
export function smokeJson(results: readonly TenantResult[], maxMs: number) {
  return {
    passed: results.every(tenantPassed),
    maxMs,
    tenants: results.map((r) => ({
      tenant: r.tenant,
      host: r.host,
      organisation: r.organisation,
      passed: tenantPassed(r),
      ms: Math.round(r.checks.reduce((s, c) => s + c.ms, 0)),
      checks: r.checks.map((c) => ({
        name: c.name,
        passed: c.outcome === "passed",
        outcome: c.outcome,
        ms: Math.round(c.ms),
        status: c.status,
        message: c.message,
      })),
    })),
  };
}

function smokeTable(ctx: CommandContext, results: readonly TenantResult[]): string {
  const { paint } = ctx.terminal;
  const labels = results[0]?.checks.map((c) => c.label) ?? [];
  const rows = [
    ["TENANT", "HOST", ...labels, "RESULT"],
    ...results.map((r) => [
      r.tenant,
      r.host,
      ...r.checks.map((c) =>
        c.outcome === "passed"
          ? formatMs(c.ms)
          : c.outcome === "slow"
            ? paint.yellow(formatMs(c.ms))
            : paint.red(c.status ? `HTTP ${c.status}` : "no answer"),
      ),
      tenantPassed(r) ? paint.green("pass") : paint.red("FAIL"),
    ]),
  ];
  const out = [formatTable(rows, ["left", "left", ...labels.map(() => "right" as const), "left"])];
  const failures = results.flatMap((r) =>
    r.checks.filter((c) => c.outcome !== "passed").map((c) => `  ${r.tenant}  ${c.label}: ${c.message}`),
  );
  if (failures.length) out.push("", "Failures:", ...failures);
  const passed = results.filter(tenantPassed).length;
  out.push("", `${passed} of ${results.length} ${results.length === 1 ? "tenant" : "tenants"} passed`);
  return out.join("\n");
}

/**
 * `varia smoke`: checks each tenant (`--concurrency` at once; each tenant's calls one after another)
 * and prints a table, JSON, and with `--junit` a JUnit file. Exit 0 only when every call of every
 * tenant answered within `--max-ms`; else 3 when any failed, could not be reached or was slow, or 2
 * when the only failures were refusals.
 */
export async function runSmoke(ctx: CommandContext, _args: string[], options: SmokeOptions) {
  const targets = smokeTargets({ ...options, profile: ctx.options.profile }, ctx.env);
  // A JUnit file that cannot be written is said before any call, not after every check has run.
  const junit = options.junit;
  if (junit)
    await access(dirname(junit), constants.W_OK).catch((error: NodeJS.ErrnoException) => {
      throw cannotWrite(junit, error);
    });
  const agent = agentFor(ctx);
  ctx.terminal.note(
    `Smoke test of ${targets.length} ${targets.length === 1 ? "tenant" : "tenants"}, ${options.maxMs} ms a call...`,
  );
  const results = await pooled(targets, options.concurrency, (target: SmokeTarget) =>
    checkTenant(
      target,
      clientFor(ctx, { ...target, profile: null }, { agent, retry: false }),
      options.maxMs,
      ctx.options.timeout,
    ),
  );
  if (options.junit) {
    const file = options.junit;
    await writeFile(file, junitReport(results, options.maxMs)).catch((error: NodeJS.ErrnoException) => {
      throw cannotWrite(file, error);
    });
  }
  if (ctx.options.json) ctx.terminal.json(smokeJson(results, options.maxMs));
  else ctx.terminal.out(smokeTable(ctx, results));
  const outcomes = results.flatMap((r) => r.checks.map((c) => c.outcome));
  if (outcomes.some((o) => o === "failed" || o === "slow")) ctx.exitWith(exitCodes.serverFailed);
  else if (outcomes.includes("refused")) ctx.exitWith(exitCodes.refused);
}
