import {
  addResponsibilities,
  configureConnection,
  deleteResponsibility,
  getConnectionByGuid,
  getResponsibilities,
  getResponsibilityCandidates,
  listConnections,
} from "@varia/contracts";
import type { FastifyInstance } from "fastify";
import { describeConnections, responsibilityCandidates, responsibleUsers } from "../connectors/connections";
import { ConnectorError } from "../connectors/connector";
import { AppError, type FieldError } from "../errors";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";
import "../db/integration-schema";

/**
 * The organisation's connections to accounting packages: list and read them, list a connection's
 * data sources again at the provider, and the users responsible for it. Disconnecting is beside the
 * data sources (integration-routes.ts).
 * docs/integration.md, "Connections in the API"
 */
export async function connectionRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps;

  /** The organisation's connection, or 404: another organisation's is not found either. */
  const oneConnection = async (organisationId: string, integrationGuid: string) => {
    const [connection] = await describeConnections(db, organisationId, integrationGuid);
    if (!connection) throw new AppError("NotFound", "No such connection");
    return connection;
  };

  const responsibilities = (organisationId: string, integrationGuid: string) =>
    responsibleUsers(db, organisationId, integrationGuid);

  registerContract(app, deps, listConnections, ({ auth }) => describeConnections(db, auth!.organisation.id));

  registerContract(app, deps, getConnectionByGuid, ({ auth, params }) =>
    oneConnection(auth!.organisation.id, params.integrationGuid),
  );

  registerContract(app, deps, configureConnection, async ({ auth, params }) => {
    const organisationId = auth!.organisation.id;
    let changed: Awaited<ReturnType<typeof deps.integrations.configureSources>>;
    try {
      changed = await deps.integrations.configureSources(organisationId, params.integrationGuid);
    } catch (error) {
      if (!(error instanceof ConnectorError)) throw error;
      // Refused (the grant was revoked: sign in again) or out of reach (try again later).
      throw new AppError(error.retryable ? "BadGateway" : "Conflict", error.message);
    }
    if (!changed) throw new AppError("NotFound", "No such connection");
    for (const id of changed.removed) await deps.jobs.unschedule(id);
    return oneConnection(organisationId, params.integrationGuid);
  });

  registerContract(app, deps, getResponsibilityCandidates, ({ auth }) =>
    responsibilityCandidates(db, auth!.organisation.id),
  );

  registerContract(app, deps, getResponsibilities, async ({ auth, params }) => {
    await oneConnection(auth!.organisation.id, params.integrationGuid);
    return responsibilities(auth!.organisation.id, params.integrationGuid);
  });

  registerContract(app, deps, addResponsibilities, async ({ auth, params, body, request }) => {
    const organisationId = auth!.organisation.id;
    await oneConnection(organisationId, params.integrationGuid);
    const wanted = [...new Set(body.userIDs)];
    await db.transaction().execute(async (tx) => {
      // Held until the rows are in, so that none of the users is deleted meanwhile.
      const found = await tx
        .selectFrom("users")
        .select("id")
        .where("organisation_id", "=", organisationId)
        .where("id", "in", wanted)
        .forKeyShare()
        .execute();
      const known = new Set(found.map((user) => user.id));
      const unknown: FieldError[] = body.userIDs.flatMap((id, i) =>
        known.has(id) ? [] : [{ field: `userIDs.${i}`, message: `no user '${id}' in this organisation` }],
      );
      if (unknown.length)
        throw new AppError("BadRequest", `Invalid body: ${unknown.map((e) => e.field).join(", ")}`, unknown);
      await tx
        .insertInto("connection_responsibilities")
        .values(
          wanted.map((userId) => ({
            organisation_id: organisationId,
            connection_id: params.integrationGuid,
            user_id: userId,
          })),
        )
        .onConflict((oc) => oc.columns(["organisation_id", "connection_id", "user_id"]).doNothing())
        .execute();
    });
    request.log.info(
      { organisation: organisationId, connection: params.integrationGuid, users: wanted.length },
      "users made responsible for a connection",
    );
    return responsibilities(organisationId, params.integrationGuid);
  });

  registerContract(app, deps, deleteResponsibility, async ({ auth, params, query }) => {
    const organisationId = auth!.organisation.id;
    await oneConnection(organisationId, params.integrationGuid);
    const deleted = await db
      .deleteFrom("connection_responsibilities")
      .where("organisation_id", "=", organisationId)
      .where("connection_id", "=", params.integrationGuid)
      .where("user_id", "=", query.userID)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0)
      throw new AppError("NotFound", "That user is not responsible for the connection");
  });
}
