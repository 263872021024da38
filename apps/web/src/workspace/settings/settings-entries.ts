import { type AbilityRef, abilities } from "@varia/contracts";
import { selectHasAbility } from "@varia/machines";
import { StartupContext } from "../../shell/startup-context";
import type { IconName } from "../../ui/Icon";

/** One screen of the settings menu, behind the ability that opens it. */
export interface SettingsEntry {
  key: string;
  title: string;
  description: string;
  path: string;
  icon: IconName;
  ability: AbilityRef;
}

/** The settings menu (`/variance/settings/menu`) in its order; each user sees the entries they may open. */
export const settingsEntries: readonly SettingsEntry[] = [
  {
    key: "users",
    title: "Users",
    description: "Who signs in: their roles, password links, multi-factor resets.",
    path: "/variance/settings/user",
    icon: "users",
    ability: abilities.settingsUsersManage,
  },
  {
    key: "roles",
    title: "Roles",
    description: "What each role may see and do, and who holds it.",
    path: "/variance/settings/role",
    icon: "roles",
    ability: abilities.settingsRolesManage,
  },
  {
    key: "lists",
    title: "Exclusion lists",
    description: "Clients and services left out of every figure.",
    path: "/variance/settings/list",
    icon: "lists",
    ability: abilities.settingsListsManage,
  },
  {
    key: "organisation",
    title: "Organisation",
    description: "Name, currency, categories, multi-factor policy, time zone.",
    path: "/variance/settings/org",
    icon: "organisation",
    ability: abilities.settingsOrganisationManage,
  },
  {
    key: "backups",
    title: "Backups",
    description: "Copies of the data taken before imports and by hand; restore one.",
    path: "/variance/settings/backup",
    icon: "backups",
    ability: abilities.settingsBackupsManage,
  },
  {
    key: "export",
    title: "Data export",
    description: "Every invoice line behind the figures, as CSV.",
    path: "/variance/settings/export",
    icon: "export",
    ability: abilities.varianceExportData,
  },
  {
    key: "tokens",
    title: "API tokens",
    description: "Tokens for the command line and scripts, each with chosen abilities.",
    path: "/variance/settings/token",
    icon: "settings",
    ability: abilities.settingsTokensManage,
  },
];

/** The entries the signed-in user may open (admins hold every ability). */
export function useAllowedSettings(): SettingsEntry[] {
  const keys = StartupContext.useSelector((s) =>
    settingsEntries
      .filter((e) => selectHasAbility(e.ability)(s))
      .map((e) => e.key)
      .join(" "),
  );
  return settingsEntries.filter((e) => keys.split(" ").includes(e.key));
}
