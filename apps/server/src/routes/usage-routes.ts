import { analyticsGeneral } from "@varia/contracts";
import type { FastifyInstance } from "fastify";
import "../db/usage-schema";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";

/** How long the workspace's analytics records are kept. */
export const usageRecordRetentionDays = 180;

/**
 * spec 7.7 `PUT analytics/general`: the workspace's own analytics records (feature usage, front-end
 * 404s), stored with the caller's organisation and user, dated by the server's clock less each
 * record's `timeAgoMs`. The organisation's records older than the retention period go in the same
 * transaction, so the table does not grow without bound.
 */
export async function usageRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps;
  registerContract(app, deps, analyticsGeneral, async ({ auth, body }) => {
    const now = deps.now().getTime();
    const organisationId = auth!.organisation.id;
    await db.transaction().execute(async (tx) => {
      await tx
        .insertInto("usage_records")
        .values(
          body.map((record) => ({
            organisation_id: organisationId,
            user_id: auth!.user.id,
            record_type: record.recordType,
            record_data: record.recordData,
            key1: record.keys.key1 ?? null,
            key2: record.keys.key2 ?? null,
            key3: record.keys.key3 ?? null,
            occurred_at: new Date(now - record.timeAgoMs),
          })),
        )
        .execute();
      await tx
        .deleteFrom("usage_records")
        .where("organisation_id", "=", organisationId)
        .where("occurred_at", "<", new Date(now - usageRecordRetentionDays * 86_400_000))
        .execute();
    });
  });
}
