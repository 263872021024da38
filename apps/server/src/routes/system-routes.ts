import { addJob, getTimeZones } from "@varia/contracts";
import type { FastifyInstance } from "fastify";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";
import { enqueueMaintenance } from "../imports/import-jobs";
import { listTimeZones } from "../settings/time-zones";

/**
 * System/GetTimeZones (docs/api.md): the IANA time zones from the runtime's own data; System/AddJob
 * (docs/integration.md, "Maintenance jobs"): a maintenance job of the organisation, queued.
 */
export async function systemRoutes(app: FastifyInstance, deps: AppDeps) {
  registerContract(app, deps, getTimeZones, () => listTimeZones(deps.now()));

  registerContract(app, deps, addJob, async ({ auth, body, request }) => {
    const queued = await enqueueMaintenance(deps.jobs, auth!.organisation.id, auth!.user.id, body.job);
    request.log.info(
      { organisation: auth!.organisation.id, job: queued.jobGuid, kind: body.job },
      "maintenance job queued",
    );
    return queued;
  });
}
