import type { AbilityRef } from "./define-contract";

/** Application module ids (docs/security.md#abilities-and-who-may-call). */
export const moduleIds = { Variance: 2, Integration: 3 } as const;

function ability(
  moduleSystemName: keyof typeof moduleIds,
  featureSystemName: string,
  abilitySystemName: string,
) {
  return { moduleSystemName, featureSystemName, abilitySystemName } as const satisfies AbilityRef;
}

/**
 * The catalogue of abilities: every screen and call names one of these. Roles grant them;
 * admins hold them all. GetAuthorisedMenu and PermissionPing are derived from this catalogue.
 */
export const abilities = {
  varianceDashboardView: ability("Variance", "Dashboard", "View"),
  varianceForecastView: ability("Variance", "Forecast", "View"),
  varianceReportsView: ability("Variance", "Reports", "View"),
  varianceExportData: ability("Variance", "Export", "Download"),
  settingsUsersManage: ability("Variance", "Users", "Manage"),
  settingsRolesManage: ability("Variance", "Roles", "Manage"),
  settingsListsManage: ability("Variance", "Lists", "Manage"),
  settingsBackupsManage: ability("Variance", "Backups", "Manage"),
  settingsOrganisationManage: ability("Variance", "Organisation", "Manage"),
  settingsTokensManage: ability("Variance", "Tokens", "Manage"),
  integrationManage: ability("Integration", "Connections", "Manage"),
  importRun: ability("Integration", "Import", "Run"),
} as const;

export type AbilityName = keyof typeof abilities;

/**
 * The abilities of the screens that show the organisation's figures: the dashboards, the forecast,
 * the reports and the data export. Each opens what all of them stand on: the months with data, the
 * client, service and salesperson pickers, whether costs were imported.
 * (docs/security.md, "Abilities and who may call")
 */
export const figureScreenAbilities = [
  abilities.varianceDashboardView,
  abilities.varianceForecastView,
  abilities.varianceReportsView,
  abilities.varianceExportData,
] as const;

export function abilityKey(a: AbilityRef): string {
  return `${a.moduleSystemName}/${a.featureSystemName}/${a.abilitySystemName}`;
}

/**
 * A refusal that names what was missing, by the key `varia tokens create --ability` takes
 * (docs/security.md, "Abilities and who may call").
 */
export function missingAbilityMessage(needed: readonly AbilityRef[]): string {
  const keys = needed.map(abilityKey);
  const what = keys.length === 1 ? `the ability ${keys[0]}` : `one of the abilities ${keys.join(", ")}`;
  return `You do not have permission to do this: it needs ${what}.`;
}

/** The menu of the workspace, each entry behind the ability that opens it. */
export const menuCatalogue = [
  {
    key: "dashboard",
    title: "Dashboard",
    path: "/variance/dashboard/stockTypeOverview",
    ability: abilities.varianceDashboardView,
  },
  { key: "forecast", title: "Forecast", path: "/variance/forecast", ability: abilities.varianceForecastView },
  {
    key: "reports",
    title: "Reports",
    path: "/variance/reports/types",
    ability: abilities.varianceReportsView,
  },
  {
    key: "export",
    title: "Data export",
    path: "/variance/settings/export",
    ability: abilities.varianceExportData,
  },
  { key: "users", title: "Users", path: "/variance/settings/user", ability: abilities.settingsUsersManage },
  { key: "roles", title: "Roles", path: "/variance/settings/role", ability: abilities.settingsRolesManage },
  {
    key: "lists",
    title: "Exclusion lists",
    path: "/variance/settings/list",
    ability: abilities.settingsListsManage,
  },
  {
    key: "backups",
    title: "Backups",
    path: "/variance/settings/backup",
    ability: abilities.settingsBackupsManage,
  },
  {
    key: "organisation",
    title: "Organisation",
    path: "/variance/settings/org",
    ability: abilities.settingsOrganisationManage,
  },
  {
    key: "integration",
    title: "Integrations",
    path: "/integration/overview",
    ability: abilities.integrationManage,
    // The page's CSV import and its recent imports are for a user who may import, connections or not.
    orAbility: abilities.importRun,
  },
] as const;
