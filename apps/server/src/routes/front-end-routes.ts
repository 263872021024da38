import { loginOrganisation, putAnalyticsGeneral, type UsageRecord } from "@varia/contracts";
import type { FastifyInstance } from "fastify";
import { findOrganisationByTenant, requestTenant } from "../http/auth-context";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";
import { redactSecretQuery } from "../http/log-redaction";

/**
 * Text of a front-end record as it goes to the log: a value of a secret-like query parameter, and
 * any run of 24 or more letters, digits, '-' or '_' (a token or the secret of a mistyped reset
 * address), are replaced, so that no secret reaches the log through a record.
 */
export function redactRecordText(text: string): string {
  return redactSecretQuery(text).replace(/[A-Za-z0-9_-]{24,}/g, "[redacted]");
}

/** Calls of the web app that are not about the data: the login view's organisation, analytics records. */
export async function frontEndRoutes(app: FastifyInstance, deps: AppDeps) {
  // Public: the display name only (what the login view shows), nothing else about the organisation.
  registerContract(app, deps, loginOrganisation, async ({ request }) => {
    const { tenant } = requestTenant(request, deps.config.defaultTenant);
    const organisation = await findOrganisationByTenant(deps.db, tenant);
    return { organisationName: organisation?.name ?? null };
  });

  // docs/api.md#analytics-records: each record is a log line (a front-end 404, a card expanded, help shown).
  registerContract(app, deps, putAnalyticsGeneral, ({ auth, body, request }) => {
    for (const record of body as UsageRecord[]) {
      request.log.info(
        {
          frontEnd: {
            recordType: record.recordType,
            recordData: redactRecordText(record.recordData),
            keys: Object.fromEntries(
              Object.entries(record.keys).map(([key, value]) => [key, redactRecordText(value ?? "")]),
            ),
            timeAgoMs: record.timeAgoMs,
          },
          organisation: auth!.organisation.id,
          user: auth!.user.id,
        },
        record.recordType === "FrontEnd404" ? "front-end 404" : "front-end record",
      );
    }
  });
}
