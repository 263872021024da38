import { getTimeZones } from "@varia/contracts";
import type { FastifyInstance } from "fastify";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";
import { listTimeZones } from "../settings/time-zones";

/** System/GetTimeZones (docs/api.md): the IANA time zones from the runtime's own data. */
export async function systemRoutes(app: FastifyInstance, deps: AppDeps) {
  registerContract(app, deps, getTimeZones, () => listTimeZones(deps.now()));
}
