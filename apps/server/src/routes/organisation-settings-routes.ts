import {
  currencies,
  getSubscriptionSettings,
  putSubscriptionSettings,
  supportedCurrencies,
} from "@varia/contracts";
import type { FastifyInstance } from "fastify";
import { dataChanged } from "../analytics/cube-cache";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";
import { readOrganisationSettings, saveOrganisationSettings } from "../settings/organisation-settings";

/** OrganisationSettings (docs/settings.md): the supported currencies, and the organisation's settings. */
export async function organisationSettingsRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps;

  registerContract(app, deps, currencies, () => ({
    supportedCurrencies: supportedCurrencies.map(({ key, name, forcedLocale }) => ({
      key,
      name,
      forcedLocale,
    })),
  }));

  registerContract(app, deps, getSubscriptionSettings, ({ auth }) =>
    readOrganisationSettings(db, auth!.organisation.id, deps.now()),
  );

  registerContract(app, deps, putSubscriptionSettings, async ({ auth, body, request }) => {
    const organisationId = auth!.organisation.id;
    const saved = await saveOrganisationSettings(db, organisationId, body, { sessionId: auth!.sessionId });
    if (saved.categoriesChanged) dataChanged(db, organisationId);
    request.log.info(
      { organisation: organisationId, user: auth!.user.id, ...saved },
      "organisation settings saved",
    );
    return readOrganisationSettings(db, organisationId, deps.now());
  });
}
