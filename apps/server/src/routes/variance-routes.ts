import { actualPeriods, getVariance } from "@varia/contracts";
import { variance, varianceJson } from "@varia/variance";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { analysisFor } from "../analytics/cube-cache";
import { latestInvoicedMonth } from "../analytics/latest-invoiced-month";
import { memo, resolveFilter } from "../analytics/resolve-filter";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";

export async function varianceRoutes(app: FastifyInstance, deps: AppDeps) {
  // The months that hold Actual data, newest first (spec 4.4), up to the latest invoiced month:
  // a prepaid year spreads into months that have not happened yet, which are not actuals yet.
  registerContract(app, deps, actualPeriods, async ({ auth }) => {
    const latest = await latestInvoicedMonth(deps.db, auth!.organisation.id);
    if (!latest) return [];
    const rows = await deps.db
      .selectFrom("monthly_cube")
      .select([
        sql<number>`extract(year from month)::int`.as("yearNo"),
        sql<number>`extract(month from month)::int`.as("monthNo"),
      ])
      .where("organisation_id", "=", auth!.organisation.id)
      .where("record_type", "=", "Actual")
      .where("month", "<=", latest)
      .groupBy("month")
      .orderBy("month", "desc")
      .execute();
    return rows.map((r) => ({ yearNo: Number(r.yearNo), monthNo: Number(r.monthNo) }));
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
