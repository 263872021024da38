import type { AccountingPackage } from "@varia/contracts";
import { type AccountingConnector, ConnectorError } from "./connector";

/** The connector of each accounting package; the app receives it (`ServerOptions.connectors`). */
export type ConnectorRegistry = Readonly<Record<AccountingPackage, AccountingConnector>>;

/** A package whose connector is missing: every call fails, and is not tried again. */
function notConfigured(integrationType: AccountingPackage): AccountingConnector {
  const fail = async (): Promise<never> => {
    throw new ConnectorError(`The ${integrationType} connector is not configured`);
  };
  return { integrationType, listSources: fail, readInvoices: fail };
}

// DEFAULT CONNECTORS: placeholders until the QuickBooks and Xero API clients
// (connectors/quickbooks/quickbooks-api.ts, connectors/xero/xero-api.ts) are merged; then this
// becomes `{ Quickbooks: quickBooksConnector, Xero: xeroConnector }`.
export const defaultConnectors: ConnectorRegistry = {
  Quickbooks: notConfigured("Quickbooks"),
  Xero: notConfigured("Xero"),
};
