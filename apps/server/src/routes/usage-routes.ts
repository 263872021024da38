import { analyticsGeneral } from "@varia/contracts";
import type { FastifyInstance } from "fastify";
import "../db/usage-schema";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";
import { redactRecordText } from "./front-end-routes";

/** How long the workspace's analytics records are kept. */
export const usageRecordRetentionDays = 180;

/**
 * spec 7.7 `PUT analytics/general`: the workspace's own analytics records (feature usage, front-end
 * 404s), stored with the caller's organisation and user, dated by the server's clock less each
 * record's `timeAgoMs`, and each written to the log. Their text is redacted first (a secret-like
 * query value, a token-like run), so no secret reaches the table or the log through a record. The
 * organisation's records older than the retention period go in the same transaction, so the table
 * does not grow without bound.
 */
export async function usageRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps;
  registerContract(app, deps, analyticsGeneral, async ({ auth, body: sent, request }) => {
    const now = deps.now().getTime();
    const organisationId = auth!.organisation.id;
    const body = sent.map((record) => ({
      ...record,
      recordData: redactRecordText(record.recordData),
      keys: Object.fromEntries(
        Object.entries(record.keys).map(([key, value]) => [key, redactRecordText(value ?? "")]),
      ) as typeof record.keys,
    }));
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
    for (const record of body) {
      request.log.info(
        { frontEnd: record, organisation: organisationId, user: auth!.user.id },
        record.recordType === "FrontEnd404" ? "front-end 404" : "front-end record",
      );
    }
  });
}
