import * as account from "./account";
import { analyticsContracts } from "./analytics";
import * as apiTokens from "./api-tokens";
import * as backups from "./backups";
import * as dataExport from "./data-export";
import type { Contract } from "./define-contract";
import * as demo from "./demo";
import * as exclusions from "./exclusions";
import * as imports from "./imports";
import * as integration from "./integration";
import * as organisationSettings from "./organisation-settings";
import { reportContracts } from "./reports";
import * as roles from "./roles";
import * as sso from "./single-sign-on";
import * as system from "./system";
import * as usageRecords from "./usage-records";
import * as users from "./user-management";
import * as variance from "./variance";

export * from "./abilities";
export * from "./account";
export * from "./analytics";
export * from "./api-tokens";
export * from "./backups";
export * from "./common";
export * from "./data-export";
export * from "./define-contract";
export * from "./demo";
export * from "./exclusions";
export * from "./filter-query";
export * from "./imports";
export * from "./integration";
export * from "./organisation-settings";
export * from "./reports";
export * from "./roles";
export * from "./single-sign-on";
export * from "./system";
export * from "./usage-records";
export * from "./user-management";
export * from "./variance";

/** Every contract of the API; the server mounts each, the authorization matrix walks them all. */
export const contracts = {
  authorisedPing: account.authorisedPing,
  permissionPing: account.permissionPing,
  termsOfServicePing: account.termsOfServicePing,
  acknowledgeTermsOfService: account.acknowledgeTermsOfService,
  getAuthorisedMenu: account.getAuthorisedMenu,
  loginOrganisation: account.loginOrganisation,
  putAnalyticsGeneral: usageRecords.putAnalyticsGeneral,
  importUpload: imports.importUpload,
  importGetJobStatus: imports.importGetJobStatus,
  importGetJobs: imports.importGetJobs,
  importTemplate: imports.importTemplate,
  exportRawData: dataExport.exportRawData,
  backupList: backups.backupList,
  backupCreate: backups.backupCreate,
  backupDownload: backups.backupDownload,
  backupRestore: backups.backupRestore,
  backupDelete: backups.backupDelete,
  login: account.login,
  logout: account.logout,
  globalLogin: account.globalLogin,
  resetMultiFactorAuthentication: account.resetMultiFactorAuthentication,
  adminResetMultiFactorAuthentication: account.adminResetMultiFactorAuthentication,
  resetPasswordRequest: account.resetPasswordRequest,
  isTokenValid: account.isTokenValid,
  resetPassword: account.resetPassword,
  resetPasswordInApp: account.resetPasswordInApp,
  singleSignOn: sso.singleSignOn,
  singleSignOnCallback: sso.singleSignOnCallback,
  singleSignUp: sso.singleSignUp,
  singleSignUpCallback: sso.singleSignUpCallback,
  demoSignup: demo.demoSignup,
  demoVerify: demo.demoVerify,
  demoContactUs: demo.demoContactUs,
  listApiTokens: apiTokens.listApiTokens,
  createApiToken: apiTokens.createApiToken,
  revokeApiToken: apiTokens.revokeApiToken,
  getRoleList: roles.getRoleList,
  getRoleDetail: roles.getRoleDetail,
  availableAbilities: roles.availableAbilities,
  editRole: roles.editRole,
  deleteRole: roles.deleteRole,
  lookupRoleList: roles.lookupRoleList,
  getUserList: users.getUserList,
  getUserDetail: users.getUserDetail,
  userPasswordStatus: users.userPasswordStatus,
  sendPasswordLink: users.sendPasswordLink,
  createUser: users.createUser,
  updateUserDetail: users.updateUserDetail,
  updateUserProfile: users.updateUserProfile,
  deleteUser: users.deleteUser,
  getExclusionList: exclusions.getExclusionList,
  getExclusionByID: exclusions.getExclusionByID,
  exclusionClientList: exclusions.exclusionClientList,
  exclusionSkuList: exclusions.exclusionSkuList,
  upsertExclusion: exclusions.upsertExclusion,
  deleteExclusion: exclusions.deleteExclusion,
  currencies: organisationSettings.currencies,
  getSubscriptionSettings: organisationSettings.getSubscriptionSettings,
  putSubscriptionSettings: organisationSettings.putSubscriptionSettings,
  getTimeZones: system.getTimeZones,
  getDataSources: integration.getDataSources,
  addSchedule: integration.addSchedule,
  addScheduleImportData: integration.addScheduleImportData,
  runSchedule: integration.runSchedule,
  getSignUpConfiguration: integration.getSignUpConfiguration,
  configureOrganisation: integration.configureOrganisation,
  setSignUpStep: integration.setSignUpStep,
  connectorAuthorisationUrl: integration.connectorAuthorisationUrl,
  deleteConnection: integration.deleteConnection,
  listConnections: integration.listConnections,
  getConnectionByGuid: integration.getConnectionByGuid,
  configureConnection: integration.configureConnection,
  getResponsibilities: integration.getResponsibilities,
  getResponsibilityCandidates: integration.getResponsibilityCandidates,
  addResponsibilities: integration.addResponsibilities,
  deleteResponsibility: integration.deleteResponsibility,
  startImport: integration.startImport,
  addJob: system.addJob,
  actualPeriods: variance.actualPeriods,
  costsImported: variance.costsImported,
  getVariance: variance.getVariance,
  ...analyticsContracts,
  ...reportContracts,
} as const satisfies Record<string, Contract>;

export type ContractName = keyof typeof contracts;
