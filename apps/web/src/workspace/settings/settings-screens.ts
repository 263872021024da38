/**
 * The settings screens, in a chunk of their own (WorkspaceRoutes loads it on the first settings
 * page): an analyst's page load never parses them.
 */
export { BackupsPage } from "./backups/BackupsPage";
export { ExclusionListPage } from "./lists/ExclusionListPage";
export { ExclusionListsPage } from "./lists/ExclusionListsPage";
export { OrganisationPage } from "./organisation/OrganisationPage";
export { RoleListPage } from "./roles/RoleListPage";
export { RolePage } from "./roles/RolePage";
export { SettingsMenuPage } from "./SettingsMenuPage";
export { TokensPage } from "./tokens/TokensPage";
export { UserListPage } from "./users/UserListPage";
export { UserPage } from "./users/UserPage";
