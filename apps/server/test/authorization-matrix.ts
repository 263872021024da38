import { type AbilityRef, abilities, abilityKey, type ContractName } from "@varia/contracts";
import { analyticsMatrix } from "./authorization-matrix-analytics";
import { reportMatrix } from "./authorization-matrix-reports";

/**
 * The authorization matrix: one entry per contract of `@varia/contracts`. The expected status of
 * each caller follows from the contract's `access` (see authorization-matrix.test.ts); an entry
 * gives a valid input and, where needed, the status of an allowed call or of particular callers.
 *
 * A contract without an entry fails the test. Adding a route is one line, e.g.
 *   myNewCall: { input: { query: { id: "..." } } },
 */

/** An API token of the organisation's admin scoped to one ability, e.g. `token:Variance/Users/Manage`. */
export type TokenCaller = `token:${string}`;

export type Caller =
  | "anonymous"
  | "plainUser"
  | "lacksAbility"
  | "admin"
  | "apiToken"
  | "otherTenant"
  | TokenCaller;

/** The caller that is an admin's token holding only `ability`. */
export const tokenWith = (ability: AbilityRef): TokenCaller => `token:${abilityKey(ability)}`;

export interface MatrixInput {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

/** What an entry may create for its input: fresh rows for calls that delete or revoke. */
export interface MatrixFixture {
  organisationId: string;
  adminUserId: string;
  plainUserId: string;
  createUser(): Promise<string>;
  createRole(): Promise<string>;
  createToken(): Promise<string>;
  createExclusionList(): Promise<string>;
  unique(prefix: string): string;
}

export interface MatrixEntry {
  /** A valid input; a function when each call needs fresh rows. */
  input?: MatrixInput | ((fixture: MatrixFixture) => Promise<MatrixInput> | MatrixInput);
  /** The status of a call the caller is allowed to make (default 200). */
  status?: number;
  /** Exceptions to the statuses the contract's access implies. */
  expect?: Partial<Record<Caller, number>>;
}

const randomUuid = "8d7e3f3c-7a51-4a7e-9d2b-3f0c2a1b4c5d";

const matrixSchedule = {
  dataSourceId: randomUuid,
  timeZone: "Pacific/Auckland",
  country: "NewZealand",
  interval: "Daily",
  hour: 6,
  minute: 30,
  amPm: "AM",
};

export const matrix: Partial<Record<ContractName, MatrixEntry>> = {
  authorisedPing: {},
  permissionPing: {},
  termsOfServicePing: {},
  acknowledgeTermsOfService: { input: { body: { accepted: true } } },
  getAuthorisedMenu: {},
  // The matrix sends JSON: an allowed caller reaches the multipart check (415).
  importUpload: { status: 415 },
  importGetJobStatus: { input: { query: { JobGuid: randomUuid } }, status: 404 },
  importGetJobs: {},
  importTemplate: {},
  exportRawData: {},
  backupList: {},
  backupCreate: {},
  backupDownload: { input: { query: { backupID: randomUuid } }, status: 404 },
  // Restoring takes a caller acting as an admin: a token holding Backups/Manage alone is not one.
  backupRestore: {
    input: { query: { backupID: randomUuid } },
    status: 404,
    expect: { [tokenWith(abilities.settingsBackupsManage)]: 403 },
  },
  // Deleting one likewise (a backup taken by the entry would be deleted by whichever caller is first).
  backupDelete: {
    input: { query: { backupID: randomUuid } },
    status: 404,
    expect: { [tokenWith(abilities.settingsBackupsManage)]: 403 },
  },
  // A fresh address each call: ten failures on one would lock it (429).
  login: {
    input: (f) => ({
      body: { email: `${f.unique("nobody")}@matrix.example.com`, password: "not a password" },
    }),
    status: 401,
  },
  logout: {},
  globalLogin: {
    input: (f) => ({
      body: { email: `${f.unique("nobody")}@matrix.example.com`, password: "not a password" },
    }),
    status: 401,
  },
  resetMultiFactorAuthentication: {
    input: { body: { password: "wrong password", totpCode: "123456" } },
    status: 400,
  },
  adminResetMultiFactorAuthentication: { input: (f) => ({ body: { userID: f.plainUserId } }) },
  resetPasswordRequest: { input: { body: { email: "nobody@matrix.example.com" } } },
  isTokenValid: { input: { query: { tokenID: randomUuid, secretToken: "a".repeat(43) } } },
  resetPassword: {
    input: { body: { tokenID: randomUuid, secretToken: "a".repeat(43), password: "a long enough password" } },
    status: 400,
  },
  resetPasswordInApp: {
    input: { body: { oldPassword: "wrong password", newPassword: "a long enough password" } },
    status: 400,
  },
  // No provider is configured in the matrix: the sign-in addresses say so.
  // Not configured here: the browser goes back to the login view (or sign-up), told why.
  singleSignOn: { input: { params: { provider: "Google" } }, status: 302 },
  singleSignOnCallback: { input: { params: { provider: "Google" } }, status: 404 },
  singleSignUp: { input: { params: { provider: "Quickbooks" } }, status: 302 },
  singleSignUpCallback: { input: { params: { provider: "Xero" } }, status: 404 },
  // The matrix's server is not in demo mode: demo sign-up and verification are no routes there.
  demoSignup: { input: { body: { name: "Visitor", email: "visitor@gmail.com" } }, status: 404 },
  demoVerify: { input: { body: { email: "visitor@matrix.example.com", code: "123456" } }, status: 404 },
  demoContactUs: { input: { body: { userMessage: "Hello" } } },
  listApiTokens: {},
  createApiToken: { input: (f) => ({ body: { name: f.unique("token") } }) },
  revokeApiToken: { input: async (f) => ({ query: { tokenID: await f.createToken() } }) },
  getRoleList: {},
  getRoleDetail: { input: async (f) => ({ query: { roleID: await f.createRole() } }) },
  availableAbilities: {},
  editRole: { input: (f) => ({ body: { roleInfo: { name: f.unique("role") } } }) },
  deleteRole: { input: async (f) => ({ query: { roleID: await f.createRole() } }) },
  lookupRoleList: { input: { body: { filter: "role", startRow: 1, rowLimit: 100 } } },
  getUserList: {},
  getUserDetail: { input: (f) => ({ query: { userID: f.plainUserId } }) },
  userPasswordStatus: { input: (f) => ({ query: { userID: f.plainUserId } }) },
  sendPasswordLink: { input: async (f) => ({ query: { userID: await f.createUser() } }) },
  createUser: { input: (f) => ({ body: { name: "New", email: `${f.unique("user")}@matrix.example.com` } }) },
  updateUserDetail: {
    input: async (f) => ({
      body: {
        userID: await f.createUser(),
        name: "Renamed",
        email: `${f.unique("renamed")}@matrix.example.com`,
      },
    }),
  },
  updateUserProfile: { input: { body: { name: "My Name" } } },
  deleteUser: { input: async (f) => ({ query: { userID: await f.createUser() } }) },
  loginOrganisation: {},
  putAnalyticsGeneral: {
    input: { body: [{ recordType: "FrontEnd404", recordData: "/nowhere", keys: {}, timeAgoMs: 0 }] },
  },
  getExclusionList: {},
  getExclusionByID: { input: async (f) => ({ query: { exclusionID: await f.createExclusionList() } }) },
  exclusionClientList: { input: { body: { search: "", startRow: 1, rowLimit: 10 } } },
  exclusionSkuList: { input: { body: { search: "", startRow: 1, rowLimit: 10 } } },
  upsertExclusion: { input: (f) => ({ body: { name: f.unique("list"), clientCodes: [], itemCodes: [] } }) },
  deleteExclusion: { input: async (f) => ({ query: { exclusionID: await f.createExclusionList() } }) },
  currencies: {},
  getSubscriptionSettings: {},
  putSubscriptionSettings: {
    input: {
      body: {
        organisationName: "matrix Ltd",
        currencyCode: "USD",
        defaultCategory: "Recurring",
        itemCategories: [],
        mfaPolicy: "off",
        timeZone: "UTC",
        backupsToKeep: 10,
      },
    },
  },
  getTimeZones: {},
  getDataSources: {},
  // The matrix's organisation has no data sources: an allowed caller reaches the lookup (404).
  addSchedule: { input: { body: matrixSchedule }, status: 404 },
  addScheduleImportData: { input: { body: matrixSchedule }, status: 404 },
  runSchedule: { input: { body: { dataSourceId: randomUuid } }, status: 404 },
  getSignUpConfiguration: {},
  configureOrganisation: {
    input: {
      body: {
        organisationName: "matrix Ltd",
        defaultCategory: "Recurring",
        adhocSkus: [],
        recurringSkus: [],
      },
    },
  },
  setSignUpStep: { input: { body: { step: "Data" } } },
  // No provider is configured for the matrix's server: an allowed caller is told so (404).
  connectorAuthorisationUrl: { input: { params: { integrationType: "Xero" } }, status: 404 },
  deleteConnection: { input: { params: { integrationGuid: randomUuid } }, status: 404 },
  // The matrix's organisation has no connections: an allowed caller reaches the lookup (404).
  listConnections: {},
  getConnectionByGuid: { input: { params: { integrationGuid: randomUuid } }, status: 404 },
  configureConnection: { input: { params: { integrationGuid: randomUuid } }, status: 404 },
  getResponsibilities: { input: { params: { integrationGuid: randomUuid } }, status: 404 },
  getResponsibilityCandidates: {},
  addResponsibilities: {
    input: (f) => ({ params: { integrationGuid: randomUuid }, body: { userIDs: [f.plainUserId] } }),
    status: 404,
  },
  deleteResponsibility: {
    input: (f) => ({ params: { integrationGuid: randomUuid }, query: { userID: f.plainUserId } }),
    status: 404,
  },
  startImport: { input: { query: { integrationGuid: randomUuid } }, status: 404 },
  // Queued once; every allowed caller after the first is answered the job still waiting.
  addJob: { input: { body: { job: "RebuildCube" } } },
  actualPeriods: {},
  costsImported: {},
  getVariance: { input: { query: { dateFrom: "2025-05", dateTo: "2025-06" } } },
  ...analyticsMatrix,
  ...reportMatrix,
};
