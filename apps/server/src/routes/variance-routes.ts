import { actualPeriods } from "@varia/contracts";
import type { FastifyInstance } from "fastify";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";

export async function varianceRoutes(app: FastifyInstance, deps: AppDeps) {
  // No invoice data exists before the import pipeline lands: the list is empty until then.
  registerContract(app, deps, actualPeriods, () => []);
}
