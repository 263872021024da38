import { loginOrganisation } from "@varia/contracts";
import type { FastifyInstance } from "fastify";
import { findOrganisationByTenant, requestTenant } from "../http/auth-context";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";

/**
 * Text of a front-end record as it goes to the log: a value of a secret-like query parameter, and
 * any run of 24 or more letters, digits, '-' or '_' (a token or the secret of a mistyped reset
 * address), are replaced, so that no secret reaches the log through a record.
 */
export function redactRecordText(text: string): string {
  return text
    .replace(/([?&;](?:[^=&]*(?:token|secret|password|code)[^=&]*)=)[^&#]*/gi, "$1[redacted]")
    .replace(/[A-Za-z0-9_-]{24,}/g, "[redacted]");
}

/**
 * Calls of the web app that are not about the data: the login view's organisation. (Its analytics
 * records, PUT analytics/general, are stored and logged by usage-routes.ts.)
 */
export async function frontEndRoutes(app: FastifyInstance, deps: AppDeps) {
  // Public: the display name only (what the login view shows), nothing else about the organisation.
  registerContract(app, deps, loginOrganisation, async ({ request }) => {
    const { tenant } = requestTenant(request, deps.config.defaultTenant);
    const organisation = await findOrganisationByTenant(deps.db, tenant);
    return { organisationName: organisation?.name ?? null };
  });
}
