import { getTimeZones } from "@varia/contracts";
import type { FastifyInstance } from "fastify";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";
import { listTimeZones } from "../settings/time-zones";

/** spec 7.6 System/GetTimeZones: the IANA time zones from the runtime's own data. */
export async function systemRoutes(app: FastifyInstance, deps: AppDeps) {
  registerContract(app, deps, getTimeZones, () => listTimeZones(deps.now()));
}
