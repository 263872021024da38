import { z } from "zod";
import { abilities } from "./abilities";
import { periodSchema } from "./common";
import { defineContract } from "./define-contract";

export const actualPeriods = defineContract({
  name: "VarianceOverview/ActualPeriods",
  method: "GET",
  root: "variance",
  path: "VarianceOverview/ActualPeriods",
  response: z.array(periodSchema),
  responseKind: "json",
  access: abilities.varianceDashboardView,
  cacheTtlMs: 60_000,
  summary: "The months that hold actual data, newest first.",
});
