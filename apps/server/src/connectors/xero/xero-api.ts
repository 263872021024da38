import { z } from "zod";
import type { AccountingConnector, ConnectorAccess, ExternalSource, ReadOptions } from "../connector";
import { centsText, ImportCsvWriter, type ImportLine, numberText } from "../import-csv";
import { getProviderJson, type ProviderTiming, revokeAtProvider } from "../provider-http";
import { classifyItem } from "../quickbooks/convert-quickbooks";

/** Xero Accounting API 2.0 (docs/integration.md, "Xero"). */
export const xeroApi = {
  /** Xero's page of invoices, and of credit notes. */
  pageSize: 100,
  /** Invoices that are not (or no longer) revenue. */
  skippedStatuses: ["DRAFT", "DELETED", "VOIDED"],
} as const;

const connectionsSchema = z.array(
  z.object({ tenantId: z.string(), tenantType: z.string(), tenantName: z.string().nullish() }),
);

const itemSchema = z.object({
  ItemID: z.string().optional(),
  Code: z.string(),
  Name: z.string().optional(),
  Description: z.string().optional(),
  IsTrackedAsInventory: z.boolean().optional(),
  IsSold: z.boolean().optional(),
  PurchaseDetails: z.object({ UnitPrice: z.number().optional() }).optional(),
});
export type XeroItem = z.input<typeof itemSchema>;

const lineItemSchema = z.object({
  LineItemID: z.string().optional(),
  ItemCode: z.string().optional(),
  Description: z.string().optional(),
  Quantity: z.number().optional(),
  UnitAmount: z.number().optional(),
  LineAmount: z.number(),
  TaxAmount: z.number().optional(),
});

const contactSchema = z.object({
  ContactID: z.string(),
  Name: z.string().optional(),
  ContactNumber: z.string().optional(),
});

/** What an invoice and a credit note both carry, besides their own id and number. */
const salesDocumentFields = {
  Type: z.string(),
  Status: z.string(),
  Contact: contactSchema,
  DateString: z.string().optional(),
  Date: z.string().optional(),
  LineAmountTypes: z.string().optional(),
  LineItems: z.array(lineItemSchema).default([]),
};

/** Xero dates a document by DateString, or by the older Date; one of them must be there. */
const hasDate = (document: { DateString?: string; Date?: string }) =>
  document.DateString !== undefined || document.Date !== undefined;
const noDate = (what: string) => ({ path: ["DateString"], message: `${what} needs DateString or Date` });

const invoiceSchema = z
  .object({ InvoiceID: z.string(), InvoiceNumber: z.string().optional(), ...salesDocumentFields })
  .refine(hasDate, noDate("an invoice"));
export type XeroInvoice = z.input<typeof invoiceSchema>;

const creditNoteSchema = z
  .object({ CreditNoteID: z.string(), CreditNoteNumber: z.string().optional(), ...salesDocumentFields })
  .refine(hasDate, noDate("a credit note"));
export type XeroCreditNote = z.input<typeof creditNoteSchema>;
type CreditNote = z.output<typeof creditNoteSchema>;

/** An invoice, or a sales credit note read as one (`credit`: its lines count against revenue). */
type Invoice = z.output<typeof invoiceSchema> & { credit?: boolean };
type Item = z.output<typeof itemSchema>;

/**
 * The invoice's date as YYYY-MM-DD: DateString ("2024-03-01T00:00:00") or the older
 * Date ("/Date(1709251200000+0000)/", milliseconds at midnight UTC).
 */
export function xeroDate(invoice: Pick<Invoice, "DateString" | "Date">): string | undefined {
  const text = invoice.DateString?.match(/^\d{4}-\d{2}-\d{2}/)?.[0];
  if (text) return text;
  const ms = invoice.Date?.match(/^\/Date\((-?\d+)([+-]\d{4})?\)\/$/)?.[1];
  return ms === undefined ? undefined : new Date(Number(ms)).toISOString().slice(0, 10);
}

/**
 * Reads the organisations (tenants) an authorisation reaches and their sales invoices through the
 * Xero Accounting API (docs/integration.md). `timing` is for tests; the server uses `xeroConnector`.
 */
export function createXeroConnector(timing: ProviderTiming = {}): AccountingConnector {
  const get = <T>(
    access: ConnectorAccess,
    path: string,
    what: string,
    schema: z.ZodType<T>,
    tenantId?: string,
  ) =>
    getProviderJson(
      access,
      {
        provider: "Xero",
        path,
        what,
        schema,
        ...(tenantId ? { headers: { "xero-tenant-id": tenantId } } : {}),
      },
      timing,
    );

  return {
    integrationType: "Xero",

    async listSources(access) {
      const connections = await get(access, "/connections", "the list of connections", connectionsSchema);
      return connections
        .filter((c) => c.tenantType === "ORGANISATION")
        .map((c) => ({ externalId: c.tenantId, name: c.tenantName ?? c.tenantId }));
    },

    async readInvoices(access, source: ExternalSource, options?: ReadOptions) {
      const tenant = source.externalId;
      const { Items } = await get(
        access,
        "/api.xro/2.0/Items",
        "the item list",
        z.object({ Items: z.array(itemSchema) }),
        tenant,
      );
      const invoices: Invoice[] = [];
      const where = encodeURIComponent('Type=="ACCREC"');
      for (let page = 1; ; page++) {
        const answer = await get(
          access,
          `/api.xro/2.0/Invoices?where=${where}&page=${page}`,
          `page ${page} of the invoices`,
          z.object({ Invoices: z.array(invoiceSchema) }),
          tenant,
        );
        invoices.push(...answer.Invoices);
        if (answer.Invoices.length < xeroApi.pageSize) break;
      }
      // Sales credit notes (refunds, corrections) take revenue back.
      const credits = encodeURIComponent('Type=="ACCRECCREDIT"');
      for (let page = 1; ; page++) {
        const answer = await get(
          access,
          `/api.xro/2.0/CreditNotes?where=${credits}&page=${page}`,
          `page ${page} of the credit notes`,
          z.object({ CreditNotes: z.array(creditNoteSchema) }),
          tenant,
        );
        invoices.push(...answer.CreditNotes.map(asInvoice));
        if (answer.CreditNotes.length < xeroApi.pageSize) break;
      }
      return mapXeroInvoices(invoices, Items, options);
    },

    // POST /connect/revocation, form token=<refresh token>: Xero ends the grant and removes every
    // tenant connection it made, so no DELETE /connections/{id} is needed (docs/integration.md, "Disconnecting").
    revoke: (access) => revokeAtProvider(access, { provider: "Xero", body: "form" }, timing),
  };
}

export const xeroConnector: AccountingConnector = createXeroConnector();

/** A sales credit note (ACCRECCREDIT) as an invoice whose lines are credits. */
function asInvoice(note: CreditNote): Invoice {
  const { CreditNoteID, CreditNoteNumber, Type, ...rest } = note;
  return {
    ...rest,
    InvoiceID: CreditNoteID,
    InvoiceNumber: CreditNoteNumber,
    Type: Type === "ACCRECCREDIT" ? "ACCREC" : Type,
    credit: true,
  };
}

const cents = (amount: number) => Math.round(amount * 100);

/**
 * Xero's sales invoices and credit notes (ACCREC and ACCRECCREDIT, not DRAFT, DELETED or VOIDED)
 * as import lines: a line's item by its ItemCode, classified by `classifyItem` (tracked inventory is
 * a product); the amount excludes tax; a credit note's quantity, amount and cost are negative.
 * Lines without an item code (free text) or with one not in the item list are skipped and
 * reported; `skipped[].line` counts the invoice lines read, the reason names invoice and line.
 */
export function mapXeroInvoices(
  invoices: readonly Invoice[],
  items: readonly Item[],
  options: ReadOptions = {},
) {
  const itemsByCode = new Map(items.map((item) => [item.Code, item]));
  const out = new ImportCsvWriter(options);
  let read = 0;
  for (const invoice of invoices) {
    if (
      invoice.Type !== "ACCREC" ||
      (xeroApi.skippedStatuses as readonly string[]).includes(invoice.Status)
    ) {
      continue;
    }
    const invoiceNumber = invoice.InvoiceNumber || invoice.InvoiceID;
    const invoiceDate = xeroDate(invoice);
    const sign = invoice.credit ? -1 : 1;
    const inclusive = invoice.LineAmountTypes === "Inclusive";
    invoice.LineItems.forEach((line, index) => {
      read++;
      const lineNumber = index + 1;
      const where = `${invoice.credit ? "credit note" : "invoice"} ${invoiceNumber} line ${lineNumber}`;
      if (!line.ItemCode) {
        out.skip(read, `${where} has no item code (a free-text line)`);
        return;
      }
      const item = itemsByCode.get(line.ItemCode);
      if (!item) {
        out.skip(read, `${where}: item ${line.ItemCode} is not in the item list`);
        return;
      }
      if (!invoiceDate) {
        out.skip(read, `${where}: the invoice's date '${invoice.DateString ?? invoice.Date}' is not a date`);
        return;
      }
      const { stockType, category } = classifyItem({
        type: item.IsTrackedAsInventory ? "Inventory" : "Service",
        name: item.Name ?? item.Code,
        description: item.Description ?? "",
      });
      const quantity = sign * (line.Quantity ?? 1);
      const amountCents = sign * (cents(line.LineAmount) - (inclusive ? cents(line.TaxAmount ?? 0) : 0));
      const purchasePrice = item.PurchaseDetails?.UnitPrice;
      const values: ImportLine = {
        InvoiceDate: invoiceDate,
        InvoiceNumber: invoiceNumber,
        LineNumber: String(lineNumber),
        ClientCode: invoice.Contact.ContactID,
        ClientName: invoice.Contact.Name ?? "",
        ItemCode: item.Code,
        ItemName: item.Name ?? "",
        StockType: stockType,
        Quantity: numberText(quantity, 4),
        // A tax-inclusive unit amount includes tax; the Amount (without tax) is what counts.
        UnitPrice: inclusive || line.UnitAmount === undefined ? "" : numberText(line.UnitAmount, 4),
        Amount: centsText(amountCents),
        Cost: purchasePrice === undefined ? "" : (purchasePrice * quantity).toFixed(2),
        RecordType: "Actual",
        Category: category,
      };
      out.add(values);
    });
  }
  return out.result();
}
