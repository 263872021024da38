import { actualPeriods, costsImported, getVariance } from "@varia/contracts";
import { periodFromMonthIndex } from "@varia/period";
import { categoryCodes, variance, varianceJson } from "@varia/variance";
import type { FastifyInstance } from "fastify";
import { analysisFor } from "../analytics/cube-cache";
import { latestInvoicedMonth } from "../analytics/latest-invoiced-month";
import { memo, resolveFilter } from "../analytics/resolve-filter";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";

export async function varianceRoutes(app: FastifyInstance, deps: AppDeps) {
  // The months that hold Actual data, newest first (docs/methodology.md, "Periods"), up to the latest invoiced month:
  // a prepaid year spreads into months that have not happened yet, which are not actuals yet.
  // The months come from the cube held in memory (grouping the stored cube took seconds on a
  // million-line tenant, on every page load); the latest invoiced month is latestInvoicedMonth's.
  registerContract(app, deps, actualPeriods, async ({ auth }) => {
    const organisationId = auth!.organisation.id;
    const [{ cube }, latest] = await Promise.all([
      analysisFor(deps, organisationId),
      latestInvoicedMonth(deps.db, organisationId),
    ]);
    if (!latest) return [];
    const until = latest.getUTCFullYear() * 12 + latest.getUTCMonth();
    return cube
      .months("Actual")
      .filter((month) => month <= until)
      .reverse()
      .map((month) => {
        const period = periodFromMonthIndex(month);
        return { yearNo: period.yearNo, monthNo: period.monthNo! };
      });
  });

  // Whether any line carries a cost, and any Recurring line: without one, margin equals revenue
  // (of MRR) and the screens say so (docs/methodology.md, "Revenue and margin"). Read once per
  // cube, from the cube in memory.
  registerContract(app, deps, costsImported, async ({ auth }) => {
    const { cube } = await analysisFor(deps, auth!.organisation.id);
    return memo(cube, "costsImported", () => {
      const recurring = categoryCodes.indexOf("Recurring");
      let costsImported = false;
      for (let i = 0; i < cube.cost.length; i++) {
        if (cube.cost[i] === 0) continue;
        costsImported = true;
        if (cube.category[i] === recurring) return { costsImported, recurringCostsImported: true };
      }
      return { costsImported, recurringCostsImported: false };
    });
  });

  // The 7.7 JSON, the same numbers as every dashboard, report and `varia variance`.
  registerContract(app, deps, getVariance, async ({ auth, query }) => {
    const analysis = await analysisFor(deps, auth!.organisation.id);
    const { cube } = analysis;
    const q = resolveFilter(analysis, query, deps.now());
    return memo(analysis, `json:${JSON.stringify(q)}`, () =>
      varianceJson(cube, variance(cube, { ...q, detail: "summary" })),
    );
  });
}
