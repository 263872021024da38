import type { ApiClient } from "@varia/api-client";
import {
  actualPeriods,
  authorisedPing,
  lookupReportList,
  overviewKpi,
  permissionPing,
} from "@varia/contracts";
import { periodFormat, periodsSortNewestFirst } from "@varia/period";
import { describeFailure } from "../../errors/describe-failure";
import { exitCodes } from "../../errors/exit-codes";
import { formatCount } from "../../output/format";
import type { SmokeTarget } from "./smoke-targets";

/** How a check ended: passed, refused by the server (4xx), failed (5xx, no answer, timeout), or slow. */
export type CheckOutcome = "passed" | "refused" | "failed" | "slow";

export interface CheckResult {
  /** The call's name as the API names it, e.g. `Account/AuthorisedPing`. */
  name: string;
  /** The column heading of the terminal's table. */
  label: string;
  outcome: CheckOutcome;
  ms: number;
  /** The HTTP status, 0 when no answer came. */
  status: number;
  /** Why it failed: the server's message, or the budget it went over. */
  message: string | null;
}

export interface TenantResult extends SmokeTarget {
  organisation: string | null;
  startedAt: string;
  checks: CheckResult[];
}

/**
 * Checks one tenant, call after call so that each is timed alone: AuthorisedPing, PermissionPing,
 * ActualPeriods, OverviewKpi of its two latest months, and the report list. Every call is made even
 * when an earlier one failed, so the result says which parts answer.
 */
export async function checkTenant(
  target: SmokeTarget,
  client: ApiClient,
  maxMs: number,
  timeoutMs: number,
): Promise<TenantResult> {
  const startedAt = new Date().toISOString();
  let organisation: string | null = null;
  let months: string[] = [];
  const calls: { name: string; label: string; run: () => Promise<unknown> }[] = [
    {
      name: authorisedPing.name,
      label: "AuthorisedPing",
      run: async () => {
        organisation = (await client.call(authorisedPing)).profile.organisationName;
      },
    },
    { name: permissionPing.name, label: "PermissionPing", run: () => client.call(permissionPing) },
    {
      name: actualPeriods.name,
      label: "ActualPeriods",
      run: async () => {
        const periods = await client.call(actualPeriods, undefined, { cache: false });
        months = periodsSortNewestFirst(periods).map((p) => periodFormat(p, "yearMonth"));
      },
    },
    {
      name: overviewKpi.name,
      label: "OverviewKpi",
      run: () =>
        client.call(overviewKpi, {
          query: { dataType: "Revenue", dateTo: months[0], dateFrom: months[1] },
        }),
    },
    {
      name: lookupReportList.name,
      label: "ReportList",
      run: () => client.call(lookupReportList, { query: {} }, { cache: false }),
    },
  ];
  const checks: CheckResult[] = [];
  for (const call of calls) {
    const started = performance.now();
    try {
      await call.run();
      const ms = performance.now() - started;
      const slow = ms > maxMs;
      checks.push({
        name: call.name,
        label: call.label,
        outcome: slow ? "slow" : "passed",
        ms,
        status: 200,
        message: slow
          ? `took ${formatCount(Math.round(ms))} ms, over the budget of ${formatCount(maxMs)} ms`
          : null,
      });
    } catch (error) {
      const ms = performance.now() - started;
      const failure = describeFailure(error, timeoutMs);
      checks.push({
        name: call.name,
        label: call.label,
        outcome: failure.exitCode === exitCodes.refused ? "refused" : "failed",
        ms,
        status: failure.status ?? 0,
        message: [failure.message, ...failure.details.map((d) => d.trim())].join("; "),
      });
    }
  }
  return { ...target, organisation, startedAt, checks };
}

export function tenantPassed(result: TenantResult): boolean {
  return result.checks.every((c) => c.outcome === "passed");
}
