import { z } from "zod";
import {
  type AccountingConnector,
  type ConnectorAccess,
  ConnectorError,
  type ExternalSource,
  type ReadOptions,
} from "../connector";
import { ImportCsvWriter, type ImportLine, numberText } from "../import-csv";
import { getProviderJson, type ProviderTiming, revokeAtProvider } from "../provider-http";
import { classifyItem } from "./convert-quickbooks";

/** QuickBooks Online Accounting API v3 (docs/integration.md, "QuickBooks Online"). */
export const quickBooksApi = {
  minorVersion: 75,
  /** QuickBooks' largest page of a query. */
  pageSize: 1000,
} as const;

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "expected a date YYYY-MM-DD");
const ref = z.object({ value: z.string(), name: z.string().optional() });

const salesLineSchema = z.object({
  Id: z.string().optional(),
  LineNum: z.number().int().optional(),
  Amount: z.number().optional(),
  DetailType: z.string(),
  SalesItemLineDetail: z
    .object({
      ItemRef: ref.optional(),
      Qty: z.number().optional(),
      UnitPrice: z.number().optional(),
      ServiceDate: z.string().optional(),
    })
    .optional(),
});

/** An invoice's line: a sales line, or a bundle's group line with its sales lines inside. */
const lineSchema = salesLineSchema.extend({
  GroupLineDetail: z
    .object({
      GroupItemRef: ref.optional(),
      Quantity: z.number().optional(),
      Line: z.array(salesLineSchema).default([]),
    })
    .optional(),
});

const invoiceSchema = z.object({
  Id: z.string(),
  DocNumber: z.string().optional(),
  TxnDate: date,
  CustomerRef: ref,
  Line: z.array(lineSchema).default([]),
  CustomField: z
    .array(z.object({ Name: z.string().optional(), StringValue: z.string().optional() }))
    .optional(),
});
export type QuickBooksInvoice = z.input<typeof invoiceSchema>;

const itemSchema = z.object({
  Id: z.string(),
  Name: z.string(),
  Sku: z.string().optional(),
  Type: z.string().optional(),
  Description: z.string().optional(),
  Active: z.boolean().optional(),
  PurchaseCost: z.number().optional(),
});
export type QuickBooksItem = z.input<typeof itemSchema>;

const companyInfoSchema = z.object({ CompanyInfo: z.object({ CompanyName: z.string() }) });

const itemPageSchema = z.object({ QueryResponse: z.object({ Item: z.array(itemSchema).optional() }) });
const invoicePageSchema = z.object({
  QueryResponse: z.object({ Invoice: z.array(invoiceSchema).optional() }),
});
/** A credit memo has an invoice's shape (its lines are credits). */
const creditMemoPageSchema = z.object({
  QueryResponse: z.object({ CreditMemo: z.array(invoiceSchema).optional() }),
});

/** An invoice, or a credit memo read as one (`credit`: its lines count against revenue). */
type Invoice = z.output<typeof invoiceSchema> & { credit?: boolean };
type SalesLine = z.output<typeof salesLineSchema>;
type Item = z.output<typeof itemSchema>;

/**
 * Reads a QuickBooks Online company through the Accounting API and maps its invoices as
 * `convertQuickBooks` maps the company's Fivetran export (docs/integration.md). `timing` is for
 * tests (a recording sleep); the server uses `quickBooksConnector`.
 */
export function createQuickBooksConnector(timing: ProviderTiming = {}): AccountingConnector {
  const companyPath = (realmId: string) => `/v3/company/${encodeURIComponent(realmId)}`;

  /** Every row a query finds, a page of `pageSize` at a time (an empty page has no list at all). */
  async function query<P, T>(
    access: ConnectorAccess,
    realmId: string,
    what: string,
    select: string,
    schema: z.ZodType<P>,
    rowsOf: (page: P) => T[] | undefined,
  ): Promise<T[]> {
    const rows: T[] = [];
    for (let start = 1; ; start += quickBooksApi.pageSize) {
      const statement = `${select} STARTPOSITION ${start} MAXRESULTS ${quickBooksApi.pageSize}`;
      const page = await getProviderJson(
        access,
        {
          provider: "QuickBooks",
          path: `${companyPath(realmId)}/query?query=${encodeURIComponent(statement)}&minorversion=${quickBooksApi.minorVersion}`,
          what,
          schema,
        },
        timing,
      );
      const found = rowsOf(page) ?? [];
      rows.push(...found);
      if (found.length < quickBooksApi.pageSize) return rows;
    }
  }

  return {
    integrationType: "Quickbooks",

    async listSources(access, realmId) {
      if (!realmId) {
        throw new ConnectorError(
          "QuickBooks names its company in the sign-in's callback (realmId); none was given",
        );
      }
      const info = await getProviderJson(
        access,
        {
          provider: "QuickBooks",
          path: `${companyPath(realmId)}/companyinfo/${encodeURIComponent(realmId)}?minorversion=${quickBooksApi.minorVersion}`,
          what: "the company's information",
          schema: companyInfoSchema,
        },
        timing,
      );
      return [{ externalId: realmId, name: info.CompanyInfo.CompanyName }];
    },

    async readInvoices(access, source: ExternalSource, options?: ReadOptions) {
      // Inactive items too: old invoices still name them.
      const items = await query(
        access,
        source.externalId,
        "the Item query",
        "select * from Item where Active in (true, false)",
        itemPageSchema,
        (page) => page.QueryResponse.Item,
      );
      const invoices = await query(
        access,
        source.externalId,
        "the Invoice query",
        "select * from Invoice",
        invoicePageSchema,
        (page) => page.QueryResponse.Invoice,
      );
      // Credit memos (refunds, corrections) take revenue back.
      const credits = await query(
        access,
        source.externalId,
        "the CreditMemo query",
        "select * from CreditMemo",
        creditMemoPageSchema,
        (page) => page.QueryResponse.CreditMemo,
      );
      return mapQuickBooksInvoices(
        [...invoices, ...credits.map((memo) => ({ ...memo, credit: true }))],
        items,
        options,
      );
    },

    // POST /v2/oauth2/tokens/revoke, JSON { token: <refresh token> }: Intuit ends the grant.
    revoke: (access) => revokeAtProvider(access, { provider: "QuickBooks", body: "json" }, timing),
  };
}

export const quickBooksConnector: AccountingConnector = createQuickBooksConnector();

/** The invoice's "Sales Rep" custom field: the export's `custom_sales_rep`. */
function salesRep(invoice: Invoice): string {
  const field = invoice.CustomField?.find((f) => /^sales\s*rep$/i.test(f.Name?.trim() ?? ""));
  return field?.StringValue ?? "";
}

/**
 * The rules of `convertQuickBooks`, on the API's objects: only SalesItemLineDetail lines, item
 * classes by `classifyItem`, a line whose item is not among the company's items skipped and
 * reported. A bundle's group line gives its items' sales lines, numbered after the invoice's own
 * lines. `skipped[].line` counts the lines read (1 is the first line of the first invoice; a
 * bundle's items each count); the reason names the invoice and the line. A credit memo's lines are
 * numbered `CM-<DocNumber>` (else `QB-CM-<Id>`), with the quantity, amount and cost negative.
 */
export function mapQuickBooksInvoices(
  invoices: readonly Invoice[],
  items: readonly Item[],
  options: ReadOptions = {},
) {
  const itemsById = new Map(items.map((item) => [item.Id, item]));
  const out = new ImportCsvWriter(options);
  let read = 0;
  for (const invoice of invoices) {
    const invoiceNumber = invoice.credit
      ? invoice.DocNumber
        ? `CM-${invoice.DocNumber}`
        : `QB-CM-${invoice.Id}`
      : invoice.DocNumber || `QB-${invoice.Id}`;
    const sign = invoice.credit ? -1 : 1;
    const document = invoice.credit ? "credit memo" : "invoice";
    // A bundle's items are numbered after the invoice's own lines, in order.
    let nextBundleLine = Math.max(0, ...invoice.Line.map((line, index) => line.LineNum ?? index + 1)) + 1;
    const addSalesLine = (line: SalesLine, lineNumber: number, where: string) => {
      read++;
      const detail = line.SalesItemLineDetail;
      if (line.DetailType !== "SalesItemLineDetail" || !detail) return;
      const itemId = detail.ItemRef?.value;
      const item = itemId ? itemsById.get(itemId) : undefined;
      if (!item) {
        out.skip(read, `${where}: item ${itemId || "(none)"} is not in the item list`);
        return;
      }
      if (line.Amount === undefined && detail.UnitPrice === undefined) {
        out.skip(read, `${where} has neither an amount nor a unit price`);
        return;
      }
      const { stockType, category } = classifyItem({
        type: item.Type ?? "",
        name: item.Name,
        description: item.Description ?? "",
      });
      const quantity = sign * (detail.Qty ?? 1);
      const values: ImportLine = {
        InvoiceDate: invoice.TxnDate,
        InvoiceNumber: invoiceNumber,
        LineNumber: String(lineNumber),
        ClientCode: `QB-${invoice.CustomerRef.value}`,
        ClientName: invoice.CustomerRef.name ?? "",
        ItemCode: item.Sku || `QB-ITEM-${item.Id}`,
        ItemName: item.Name,
        StockType: stockType,
        Quantity: numberText(quantity, 4),
        UnitPrice: detail.UnitPrice === undefined ? "" : numberText(detail.UnitPrice, 4),
        Amount: line.Amount === undefined ? "" : numberText(sign * line.Amount, 2),
        Cost: item.PurchaseCost === undefined ? "" : (item.PurchaseCost * quantity).toFixed(2),
        Salesperson: salesRep(invoice),
        RecordType: "Actual",
        Category: category,
      };
      out.add(values);
    };
    invoice.Line.forEach((line, index) => {
      const lineNumber = line.LineNum ?? index + 1;
      const where = `${document} ${invoiceNumber} line ${lineNumber}`;
      if (line.DetailType !== "GroupLineDetail") {
        addSalesLine(line, lineNumber, where);
        return;
      }
      const inside = line.GroupLineDetail?.Line ?? [];
      if (!inside.length) {
        read++;
        out.skip(read, `${where} is a bundle (group) line without its items`);
        return;
      }
      inside.forEach((salesLine, k) => {
        const number = nextBundleLine++;
        addSalesLine(salesLine, number, `${where}, bundle item ${k + 1} (line ${number})`);
      });
    });
  }
  return out.result();
}
