import {
  addSchedule,
  addScheduleImportData,
  configureOrganisation,
  type DataSource,
  deleteConnection,
  getDataSources,
  getSignUpConfiguration,
  runSchedule,
  setSignUpStep,
  startImport,
} from "@varia/contracts";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { dataChanged } from "../analytics/cube-cache";
import { enqueueSourceImport, sourcesWithConnection } from "../connectors/connections";
import { AppError, type FieldError } from "../errors";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";
import { saveImportSchedule, scheduleOfRow, uuidOrNil } from "../imports/import-schedules";
import { replaceItemCategories } from "../settings/organisation-settings";
import "../db/integration-schema";
import { namedByCode } from "../lines/dimension-names";

/**
 * Integration (docs/integration.md): the organisation's data sources and their import schedules,
 * imports from them, and the sign-up wizard's last steps (docs/integration.md#sign-up).
 */
export async function integrationRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps;
  const { uploadsDir } = deps.integrations;

  registerContract(app, deps, getDataSources, async ({ auth, query }) => {
    const organisationId = auth!.organisation.id;
    let sources = sourcesWithConnection(db)
      .select([
        "data_sources.id",
        "data_sources.connection_id",
        "data_sources.name",
        "data_sources.last_job_id",
        "connections.integration_type",
      ])
      .where("data_sources.organisation_id", "=", organisationId);
    if (query.IntegrationGuid)
      sources = sources.where("data_sources.connection_id", "=", query.IntegrationGuid);
    const rows = await sources.orderBy("data_sources.name").orderBy("data_sources.id").execute();
    const schedules = await db
      .selectFrom("import_schedules")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .execute();
    const byId = new Map(schedules.map((s) => [s.data_source_id, scheduleOfRow(s)]));
    return rows.map(
      (row): DataSource => ({
        id: row.id,
        integrationGuid: row.connection_id,
        integrationType: row.integration_type,
        name: row.name,
        schedule: byId.get(row.id) ?? null,
        lastJobGuid: row.last_job_id,
      }),
    );
  });

  // docs/integration.md, "Disconnecting"
  registerContract(app, deps, deleteConnection, async ({ auth, params, request }) => {
    const organisationId = auth!.organisation.id;
    const disconnected = await deps.integrations.disconnect(organisationId, params.integrationGuid);
    if (!disconnected) throw new AppError("NotFound", "No such connection");
    for (const source of disconnected.sources) await deps.jobs.unschedule(source);
    request.log.info(
      {
        organisation: organisationId,
        connection: params.integrationGuid,
        sources: disconnected.sources.length,
        revoked: disconnected.revoked,
      },
      "accounting package disconnected",
    );
  });

  registerContract(app, deps, addSchedule, async ({ auth, body, request }) => {
    await saveImportSchedule(db, deps.jobs, auth!.organisation.id, body, deps.now());
    request.log.info(
      { organisation: auth!.organisation.id, dataSource: body.dataSourceId, interval: body.interval },
      "import schedule saved",
    );
  });

  const importNow = async (organisationId: string, userId: string, dataSourceId: string) => {
    const queued = await enqueueSourceImport(deps.jobs, uploadsDir, {
      organisationId,
      userId,
      dataSourceId: uuidOrNil(dataSourceId),
    });
    if (!queued) throw new AppError("NotFound", "No such data source");
    return queued;
  };

  registerContract(app, deps, addScheduleImportData, async ({ auth, body }) => {
    await saveImportSchedule(db, deps.jobs, auth!.organisation.id, body, deps.now());
    return importNow(auth!.organisation.id, auth!.user.id, body.dataSourceId);
  });

  registerContract(app, deps, runSchedule, ({ auth, body }) =>
    importNow(auth!.organisation.id, auth!.user.id, body.dataSourceId),
  );

  // docs/integration.md, "Importing from a connection"
  registerContract(app, deps, startImport, async ({ auth, query }) => {
    const organisationId = auth!.organisation.id;
    const connection = await db
      .selectFrom("connections")
      .select("id")
      .where("organisation_id", "=", organisationId)
      .where("id", "=", query.integrationGuid)
      .executeTakeFirst();
    if (!connection) throw new AppError("NotFound", "No such connection");
    let sources = db
      .selectFrom("data_sources")
      .select("id")
      .where("organisation_id", "=", organisationId)
      .where("connection_id", "=", connection.id);
    if (query.dataSourceId) sources = sources.where("id", "=", query.dataSourceId);
    const ids = (await sources.orderBy("name").orderBy("id").execute()).map((source) => source.id);
    if (query.dataSourceId && !ids.length)
      throw new AppError("NotFound", "No such data source of this connection");
    const jobs: { dataSourceId: string; jobGuid: string }[] = [];
    for (const dataSourceId of ids)
      jobs.push({ dataSourceId, ...(await importNow(organisationId, auth!.user.id, dataSourceId)) });
    return { jobs };
  });

  registerContract(app, deps, getSignUpConfiguration, async ({ auth }) => {
    const organisationId = auth!.organisation.id;
    const organisation = await db
      .selectFrom("organisations")
      .select(["name", "default_category"])
      .where("id", "=", organisationId)
      .executeTakeFirstOrThrow();
    const items = await db
      .selectFrom("items")
      .select(["code", "name", "category"])
      .where("organisation_id", "=", organisationId)
      .orderBy(sql`code collate "C"`)
      .execute();
    return {
      organisationName: organisation.name,
      defaultCategory: organisation.default_category,
      skus: items.map((i) => ({ code: i.code, name: namedByCode(i.name, i.code) })),
      recurringSkus: items.filter((i) => i.category === "Recurring").map((i) => i.code),
      adhocSkus: items.filter((i) => i.category === "Adhoc").map((i) => i.code),
    };
  });

  registerContract(app, deps, configureOrganisation, async ({ auth, body, request }) => {
    const organisationId = auth!.organisation.id;
    const entries = [
      ...body.recurringSkus.map((code, i) => ({
        code,
        category: "Recurring" as const,
        field: `recurringSkus.${i}`,
      })),
      ...body.adhocSkus.map((code, i) => ({ code, category: "Adhoc" as const, field: `adhocSkus.${i}` })),
    ];
    const seen = new Set<string>();
    const twice: FieldError[] = [];
    for (const entry of entries) {
      if (seen.has(entry.code))
        twice.push({ field: entry.field, message: `'${entry.code}' is listed twice` });
      seen.add(entry.code);
    }
    if (twice.length)
      throw new AppError("BadRequest", `Invalid body: ${twice.map((e) => e.field).join(", ")}`, twice);
    const changed = await db.transaction().execute(async (tx) => {
      const before = await tx
        .selectFrom("organisations")
        .select("default_category")
        .where("id", "=", organisationId)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const categoriesChanged = await replaceItemCategories(
        tx,
        organisationId,
        { before: before.default_category, after: body.defaultCategory },
        entries,
      );
      await tx
        .updateTable("organisations")
        .set({ name: body.organisationName, default_category: body.defaultCategory, sign_up_step: null })
        .where("id", "=", organisationId)
        .execute();
      return categoriesChanged;
    });
    if (changed) dataChanged(db, organisationId);
    request.log.info({ organisation: organisationId, categoriesChanged: changed }, "sign-up configured");
  });

  registerContract(app, deps, setSignUpStep, async ({ auth, body }) => {
    await db
      .updateTable("organisations")
      .set({ sign_up_step: body.step })
      .where("id", "=", auth!.organisation.id)
      .execute();
  });
}
