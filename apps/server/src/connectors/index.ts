import type { AccountingPackage } from "@varia/contracts";
import type { AccountingConnector } from "./connector";
import { quickBooksConnector } from "./quickbooks/quickbooks-api";
import { xeroConnector } from "./xero/xero-api";

/** The connector of each accounting package; the app receives it (`ServerOptions.connectors`). */
export type ConnectorRegistry = Readonly<Record<AccountingPackage, AccountingConnector>>;

/** The real API clients (docs/integration.md, "Connectors"); tests may pass others. */
export const defaultConnectors: ConnectorRegistry = {
  Quickbooks: quickBooksConnector,
  Xero: xeroConnector,
};
