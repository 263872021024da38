import type { AccountingPackage } from "@varia/contracts";
import { ShownImportFailure } from "../imports/import-jobs";
import type { ConvertedExport } from "./quickbooks/convert-quickbooks";

/**
 * How Varia reaches one authorisation at an accounting package (docs/integration.md): the API's base
 * address (configuration: `VARIA_QUICKBOOKS_API_URL`, `VARIA_XERO_API_URL`), a current access token
 * (the connection refreshes it before calling), and `fetch` (tests pass a stand-in server's address,
 * never a fake fetch).
 */
export interface ConnectorAccess {
  readonly apiUrl: string;
  readonly accessToken: string;
  readonly fetch?: typeof fetch;
}

/**
 * What revoking an authorisation takes (docs/integration.md, "Disconnecting"): the provider's
 * revocation endpoint (configuration: `VARIA_QUICKBOOKS_REVOCATION_URL`, `VARIA_XERO_REVOCATION_URL`),
 * Varia's client at the provider (`VARIA_SSO_<PROVIDER>_CLIENT_ID` and `_CLIENT_SECRET`), sent as
 * HTTP Basic, and the refresh token to revoke. Secrets: never logged, never in an error's message.
 */
export interface RevocationAccess {
  readonly revocationUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly refreshToken: string;
  readonly fetch?: typeof fetch;
}

/** A company (QuickBooks realm) or organisation (Xero tenant) the authorisation reaches. */
export interface ExternalSource {
  /** The provider's id: QuickBooks' realmId, Xero's tenantId. */
  readonly externalId: string;
  readonly name: string;
}

/** What the organisation already has, which a read leaves as it is. */
export interface ReadOptions {
  /**
   * The codes of the items the organisation has: their lines carry no Category, so that an import
   * never undoes the categories its users chose (docs/integration.md, "Categories").
   */
  readonly knownItemCodes?: ReadonlySet<string>;
}

/**
 * Why a connector could not read: the provider refused, or answered something it cannot use. Its
 * message is written for the job's users, who read it in the job and its failure mail.
 */
export class ConnectorError extends ShownImportFailure {
  constructor(
    message: string,
    /** The provider's HTTP status, when it answered. */
    readonly status?: number,
    /** True when trying again later may work (429, 5xx, a network failure). */
    readonly retryable = false,
  ) {
    super(message);
  }
}

/**
 * An accounting package's API, read-only but for `revoke`. Each read pages through the provider's answers, honours
 * its rate limits (429 with Retry-After) and throws `ConnectorError` with the provider's status.
 */
export interface AccountingConnector {
  readonly integrationType: AccountingPackage;
  /**
   * The sources this authorisation reaches. QuickBooks names its one company in the sign-in's
   * callback (`realmId`), so `hint` is that id; Xero lists its tenants (GET /connections).
   */
  listSources(access: ConnectorAccess, hint?: string): Promise<ExternalSource[]>;
  /** Every sales invoice line of the source, as Varia's import CSV (docs/import.md). */
  readInvoices(
    access: ConnectorAccess,
    source: ExternalSource,
    options?: ReadOptions,
  ): Promise<ConvertedExport>;
  /**
   * Revokes the refresh token at the provider, which ends the whole grant: its access tokens and
   * (Xero) every tenant it reaches. Resolves when the provider answers 200; throws `ConnectorError`
   * with the provider's status when it refuses, or without one when it cannot be reached in time.
   */
  revoke(access: RevocationAccess): Promise<void>;
}
