import type { AccountingPackage } from "@varia/contracts";
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

/** Why a connector could not read: the provider refused, or answered something it cannot use. */
export class ConnectorError extends Error {
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
 * An accounting package's API, read-only. Each call pages through the provider's answers, honours
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
}
