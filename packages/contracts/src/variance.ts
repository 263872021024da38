import { z } from "zod";
import { periodSchema } from "./common";
import { defineContract } from "./define-contract";

export const varianceRead = {
  moduleSystemName: "Variance",
  featureSystemName: "Dashboard",
  abilitySystemName: "View",
} as const;

export const actualPeriods = defineContract({
  name: "VarianceOverview/ActualPeriods",
  method: "GET",
  root: "variance",
  path: "VarianceOverview/ActualPeriods",
  response: z.array(periodSchema),
  responseKind: "json",
  access: varianceRead,
  cacheTtlMs: 60_000,
  summary: "The months that hold actual data, newest first.",
});
