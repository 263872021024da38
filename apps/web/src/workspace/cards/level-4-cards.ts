import { tableInvoiceData } from "@varia/contracts";
import { periodFormat, periodFromKey } from "@varia/period";
import { loadCall } from "./card-call";
import type { CardDefinition } from "./card-types";
import {
  InvoiceLinesRenderer,
  type InvoicePage,
  invoicePageSize,
  invoiceQuery,
} from "./renderers/InvoiceLinesRenderer";

const month = (key: string | null) => (key ? periodFormat(periodFromKey(key)) : "");

/** Level 4's card: the invoice lines behind the view. */
const invoiceLines: CardDefinition<InvoicePage> = {
  id: "invoiceLines",
  heading: "Invoice lines",
  helpKey: "invoiceLines",
  contract: tableInvoiceData,
  searchable: true,
  load: loadCall({
    contract: tableInvoiceData,
    input: ({ filter, search }) => ({
      query: invoiceQuery(filter, search, { startRow: 0, rowLimit: invoicePageSize }),
    }),
    select: (r) => (r.rowCount === 0 ? null : r),
  }),
  render: InvoiceLinesRenderer,
  expandable: true,
  subtitle: ({ filter }) =>
    `Dated ${month(filter.dateFrom)} to ${month(filter.dateTo)}, or with a service period reaching into those months`,
};

export const level4Cards = { invoiceLines };
