import * as account from "./account";
import type { Contract } from "./define-contract";
import * as variance from "./variance";

export * from "./abilities";
export * from "./account";
export * from "./common";
export * from "./define-contract";
export * from "./variance";

/** Every contract of the API; the server mounts each, the authorization matrix walks them all. */
export const contracts = {
  authorisedPing: account.authorisedPing,
  permissionPing: account.permissionPing,
  termsOfServicePing: account.termsOfServicePing,
  acknowledgeTermsOfService: account.acknowledgeTermsOfService,
  getAuthorisedMenu: account.getAuthorisedMenu,
  login: account.login,
  logout: account.logout,
  actualPeriods: variance.actualPeriods,
} as const satisfies Record<string, Contract>;

export type ContractName = keyof typeof contracts;
