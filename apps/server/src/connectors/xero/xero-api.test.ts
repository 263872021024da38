import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import {
  type AccountingStandIn,
  startXeroStandIn,
  type XeroStandInTenant,
} from "../../../test/accounting-stand-ins";
import { parseInvoiceRows } from "../../imports/parse-invoice-file";
import { ConnectorError } from "../connector";
import {
  createXeroConnector,
  type XeroCreditNote,
  type XeroInvoice,
  type XeroItem,
  xeroDate,
} from "./xero-api";

const token = "xero-access-token-never-shown";
const tenantId = "7a3e1c2b-0000-4000-8000-00000000a001";
const source = { externalId: tenantId, name: "Harbour Software" };

let standIn: AccountingStandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

async function start(invoices: XeroInvoice[], items: XeroItem[], more: XeroStandInTenant[] = []) {
  standIn = await startXeroStandIn({
    accessToken: token,
    tenants: [{ tenantId, tenantName: "Harbour Software", invoices, items }, ...more],
  });
  return { standIn, access: { apiUrl: standIn.url, accessToken: token } };
}

function connector() {
  const waits: number[] = [];
  const xero = createXeroConnector({
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
  return { xero, waits };
}

const items: XeroItem[] = [
  { ItemID: "i1", Code: "SUB-PRO", Name: "Pro subscription", IsTrackedAsInventory: false, IsSold: true },
  { ItemID: "i2", Code: "SENSOR", Name: "Leak sensor", IsTrackedAsInventory: true, IsSold: true },
  { ItemID: "i3", Code: "SUPPORT", Name: "Support hours", IsSold: true },
  { ItemID: "i4", Code: "SETUP", Name: "Account setup", IsSold: true },
];

const contact = { ContactID: "c-0001", Name: "Acme, Ltd", ContactNumber: "ACME" };
const invoice = (n: number, extra: Partial<XeroInvoice> = {}): XeroInvoice => ({
  InvoiceID: `inv-${n}`,
  InvoiceNumber: `INV-${String(n).padStart(4, "0")}`,
  Type: "ACCREC",
  Status: "AUTHORISED",
  Contact: contact,
  DateString: "2024-03-01T00:00:00",
  LineAmountTypes: "Exclusive",
  LineItems: [
    {
      LineItemID: `l-${n}`,
      ItemCode: "SUB-PRO",
      Quantity: 1,
      UnitAmount: 100,
      LineAmount: 100,
      TaxAmount: 15,
    },
  ],
  ...extra,
});

/** The pages of a list (Invoices, CreditNotes) the connector asked for, in order. */
const pagesAsked = (standIn: AccountingStandIn, list: string) =>
  standIn.requests.filter((r) => r.path === `/api.xro/2.0/${list}`).map((r) => r.query.get("page"));

const creditNote = (n: number, extra: Partial<XeroCreditNote> = {}): XeroCreditNote => ({
  CreditNoteID: `cn-${n}`,
  CreditNoteNumber: `CN-${String(n).padStart(4, "0")}`,
  Type: "ACCRECCREDIT",
  Status: "AUTHORISED",
  Contact: contact,
  DateString: "2024-03-20T00:00:00",
  LineAmountTypes: "Exclusive",
  LineItems: [{ ItemCode: "SUB-PRO", Quantity: 2, UnitAmount: 120, LineAmount: 240, TaxAmount: 36 }],
  ...extra,
});

describe("the Xero connector", () => {
  it("reads sales credit notes as credits: quantity, amount and cost taken back, drafts and voids left out", async () => {
    standIn = await startXeroStandIn({
      accessToken: token,
      tenants: [
        {
          tenantId,
          tenantName: "Harbour Software",
          invoices: [invoice(1)],
          items: [{ ...items[0]!, PurchaseDetails: { UnitPrice: 20 } }, ...items.slice(1)],
          creditNotes: [
            creditNote(1),
            creditNote(2, {
              CreditNoteNumber: undefined,
              LineAmountTypes: "Inclusive",
              LineItems: [
                { ItemCode: "SUPPORT", Quantity: 1, UnitAmount: 115, LineAmount: 115, TaxAmount: 15 },
                { Description: "Goodwill", LineAmount: 10 },
              ],
            }),
            creditNote(3, { Status: "DRAFT" }),
            creditNote(4, { Status: "VOIDED" }),
            creditNote(5, { Type: "ACCPAYCREDIT" }),
          ],
        },
      ],
    });
    const read = await connector().xero.readInvoices({ apiUrl: standIn.url, accessToken: token }, source);
    expect(read.csv.split("\n").slice(1)).toEqual([
      '2024-03-01,INV-0001,1,c-0001,"Acme, Ltd",SUB-PRO,Pro subscription,Subscription,1,100,100.00,20.00,,,,Actual,Recurring',
      '2024-03-20,CN-0001,1,c-0001,"Acme, Ltd",SUB-PRO,Pro subscription,Subscription,-2,120,-240.00,-40.00,,,,Actual,Recurring',
      '2024-03-20,cn-2,1,c-0001,"Acme, Ltd",SUPPORT,Support hours,Hourly,-1,,-100.00,,,,,Actual,Recurring',
      "",
    ]);
    expect(read.skipped).toEqual([
      { line: 4, reason: "credit note cn-2 line 2 has no item code (a free-text line)" },
    ]);
    expect(standIn.requests.find((r) => r.path === "/api.xro/2.0/CreditNotes")?.query.get("where")).toBe(
      'Type=="ACCRECCREDIT"',
    );
    // What the import reads of it: the credits count against revenue.
    const amounts = [];
    for await (const parsed of parseInvoiceRows(Readable.from([read.csv]))) {
      expect(parsed.errors).toBeUndefined();
      amounts.push(parsed.row?.amountCents);
    }
    expect(amounts).toEqual([10000n, -24000n, -10000n]);
  });

  it("pages through credit notes as through invoices", async () => {
    standIn = await startXeroStandIn({
      accessToken: token,
      tenants: [
        {
          tenantId,
          tenantName: "Harbour Software",
          invoices: [],
          items,
          creditNotes: Array.from({ length: 150 }, (_, i) => creditNote(i + 1)),
        },
      ],
    });
    const read = await connector().xero.readInvoices({ apiUrl: standIn.url, accessToken: token }, source);
    expect(read.lineCount).toBe(150);
    expect(pagesAsked(standIn, "CreditNotes")).toEqual(["1", "2"]);
  });

  it("lists the organisations the authorisation reaches, not other kinds of tenant", async () => {
    const { access, standIn } = await start(
      [],
      [],
      [
        { tenantId: "t-2", tenantName: "Second Org", invoices: [], items: [] },
        { tenantId: "t-3", tenantName: "A practice", tenantType: "PRACTICEMANAGER", invoices: [], items: [] },
      ],
    );
    expect(await connector().xero.listSources(access)).toEqual([
      { externalId: tenantId, name: "Harbour Software" },
      { externalId: "t-2", name: "Second Org" },
    ]);
    expect(standIn.requests[0]?.headers.authorization).toBe(`Bearer ${token}`);
    expect(standIn.requests[0]?.headers["xero-tenant-id"]).toBeUndefined();
  });

  it("maps sales invoices to import lines: items classified, tax excluded, drafts and voids left out", async () => {
    const { access, standIn } = await start(
      [
        invoice(1, {
          LineItems: [
            { ItemCode: "SUB-PRO", Quantity: 5, UnitAmount: 120, LineAmount: 600, TaxAmount: 90 },
            { ItemCode: "SENSOR", Quantity: 2, UnitAmount: 62.5, LineAmount: 125, TaxAmount: 18.75 },
            { ItemCode: "SUPPORT", Quantity: 3.5, UnitAmount: 95, LineAmount: 332.5, TaxAmount: 0 },
          ],
        }),
        invoice(2, {
          Status: "PAID",
          Date: "/Date(1711929600000+0000)/",
          DateString: undefined,
          LineAmountTypes: "Inclusive",
          LineItems: [{ ItemCode: "SETUP", Quantity: 1, UnitAmount: 115, LineAmount: 115, TaxAmount: 15 }],
        }),
        invoice(3, { Status: "DRAFT" }),
        invoice(4, { Status: "VOIDED" }),
        invoice(5, { Status: "DELETED" }),
        invoice(6, { Type: "ACCPAY" }),
      ],
      items,
    );
    const read = await connector().xero.readInvoices(access, source);
    expect(read.csv.split("\n")).toEqual([
      "InvoiceDate,InvoiceNumber,LineNumber,ClientCode,ClientName,ItemCode,ItemName,StockType,Quantity,UnitPrice,Amount,Cost,Salesperson,ServiceFrom,ServiceTo,RecordType,Category",
      '2024-03-01,INV-0001,1,c-0001,"Acme, Ltd",SUB-PRO,Pro subscription,Subscription,5,120,600.00,,,,,Actual,Recurring',
      '2024-03-01,INV-0001,2,c-0001,"Acme, Ltd",SENSOR,Leak sensor,Product,2,62.5,125.00,,,,,Actual,Adhoc',
      '2024-03-01,INV-0001,3,c-0001,"Acme, Ltd",SUPPORT,Support hours,Hourly,3.5,95,332.50,,,,,Actual,Recurring',
      '2024-04-01,INV-0002,1,c-0001,"Acme, Ltd",SETUP,Account setup,Subscription,1,,100.00,,,,,Actual,Adhoc',
      "",
    ]);
    expect(read.lineCount).toBe(4);
    expect(read.skipped).toEqual([]);
    for await (const parsed of parseInvoiceRows(Readable.from([read.csv])))
      expect(parsed.errors).toBeUndefined();

    const invoiceRequest = standIn.requests.find((r) => r.path === "/api.xro/2.0/Invoices");
    expect(invoiceRequest?.query.get("where")).toBe('Type=="ACCREC"');
    for (const r of standIn.requests.slice(-2)) {
      expect(r.headers["xero-tenant-id"]).toBe(tenantId);
      expect(r.headers.accept).toBe("application/json");
    }
  });

  it("gives no category to the items the organisation already has, so a re-import keeps its users' choices", async () => {
    const { access } = await start(
      [
        invoice(1, {
          LineItems: [
            { ItemCode: "SUB-PRO", Quantity: 1, UnitAmount: 100, LineAmount: 100 },
            { ItemCode: "SETUP", Quantity: 1, UnitAmount: 50, LineAmount: 50 },
          ],
        }),
      ],
      items,
    );
    const read = await connector().xero.readInvoices(access, source, { knownItemCodes: new Set(["SETUP"]) });
    expect(read.csv.split("\n").slice(1, 3)).toEqual([
      '2024-03-01,INV-0001,1,c-0001,"Acme, Ltd",SUB-PRO,Pro subscription,Subscription,1,100,100.00,,,,,Actual,Recurring',
      '2024-03-01,INV-0001,2,c-0001,"Acme, Ltd",SETUP,Account setup,Subscription,1,50,50.00,,,,,Actual,',
    ]);
  });

  it("takes tax out of tax-inclusive lines to the cent, credits too", async () => {
    const { access } = await start(
      [
        invoice(1, {
          LineAmountTypes: "Inclusive",
          LineItems: [
            { ItemCode: "SUB-PRO", Quantity: 3, UnitAmount: 33.33, LineAmount: 99.99, TaxAmount: 13.04 },
            { ItemCode: "SUB-PRO", Quantity: -1, UnitAmount: 11.5, LineAmount: -11.5, TaxAmount: -1.5 },
          ],
        }),
      ],
      items,
    );
    const read = await connector().xero.readInvoices(access, source);
    const amounts = [];
    for await (const parsed of parseInvoiceRows(Readable.from([read.csv])))
      amounts.push(parsed.row?.amountCents);
    expect(amounts).toEqual([8695n, -1000n]);
  });

  it("pages until a page holds fewer than 100 invoices", async () => {
    const invoices = Array.from({ length: 205 }, (_, i) => invoice(i + 1));
    const { access, standIn } = await start(invoices, items);
    const read = await connector().xero.readInvoices(access, source);
    expect(read.lineCount).toBe(205);
    expect(pagesAsked(standIn, "Invoices")).toEqual(["1", "2", "3"]);
  });

  it("asks for the next page after a full one even when it is empty", async () => {
    const { access, standIn } = await start(
      Array.from({ length: 100 }, (_, i) => invoice(i + 1)),
      items,
    );
    expect((await connector().xero.readInvoices(access, source)).lineCount).toBe(100);
    expect(pagesAsked(standIn, "Invoices")).toEqual(["1", "2"]);
  });

  it("reports free-text lines and unknown items, with their invoice and line", async () => {
    const { access } = await start(
      [
        invoice(1, {
          LineItems: [
            { Description: "Thanks for your business", LineAmount: 0 },
            { ItemCode: "GONE", Quantity: 1, LineAmount: 50 },
            { ItemCode: "SUB-PRO", Quantity: 1, UnitAmount: 100, LineAmount: 100 },
          ],
        }),
      ],
      items,
    );
    const read = await connector().xero.readInvoices(access, source);
    expect(read.lineCount).toBe(1);
    expect(read.skipped).toEqual([
      { line: 1, reason: "invoice INV-0001 line 1 has no item code (a free-text line)" },
      { line: 2, reason: "invoice INV-0001 line 2: item GONE is not in the item list" },
    ]);
  });

  it("reads both forms of Xero's invoice date", () => {
    expect(xeroDate({ DateString: "2024-03-01T00:00:00" })).toBe("2024-03-01");
    expect(xeroDate({ Date: "/Date(1709251200000+0000)/" })).toBe("2024-03-01");
    expect(xeroDate({ Date: "yesterday" })).toBeUndefined();
  });

  it("refuses a wrong token with a clear, not retryable error that does not show the token", async () => {
    const { standIn } = await start([], []);
    const error = await connector()
      .xero.listSources({ apiUrl: standIn.url, accessToken: "expired-xero-token" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect(error).toMatchObject({
      message: "Xero refused the access token (401)",
      status: 401,
      retryable: false,
    });
    expect((error as Error).message).not.toContain("expired-xero-token");
  });

  it("waits a 429's Retry-After and carries on; a 503 is retryable", async () => {
    const { access, standIn } = await start([invoice(1)], items);
    const { xero, waits } = connector();
    standIn.failNext({ status: 429, retryAfter: "2" });
    expect((await xero.readInvoices(access, source)).lineCount).toBe(1);
    expect(waits).toEqual([2000]);
    expect(standIn.requests.map((r) => r.path)).toEqual([
      "/api.xro/2.0/Items",
      "/api.xro/2.0/Items",
      "/api.xro/2.0/Invoices",
      "/api.xro/2.0/CreditNotes",
    ]);

    standIn.failNext({ status: 503 });
    await expect(xero.listSources(access)).rejects.toMatchObject({
      message: "Xero failed to answer the list of connections (503)",
      status: 503,
      retryable: true,
    });
  });

  it("names what is missing from a body that is not the expected JSON", async () => {
    const { access, standIn } = await start([invoice(1)], items);
    const xero = connector().xero;
    standIn.failNext({ status: 200, body: JSON.stringify({ Status: "OK" }) });
    await expect(xero.readInvoices(access, source)).rejects.toThrow(
      /^Xero answered the item list without a valid Items \(/,
    );
    standIn.failNext({
      path: "/api.xro/2.0/Invoices",
      status: 200,
      body: JSON.stringify({ Invoices: [{ ...invoice(1), Contact: { Name: "No id" } }] }),
    });
    await expect(xero.readInvoices(access, source)).rejects.toThrow(
      /^Xero answered page 1 of the invoices without a valid Invoices\[0\]\.Contact\.ContactID \(/,
    );
  });

  it("revokes a refresh token at Xero as a form with the client's Basic credentials; out of reach is an error without the token", async () => {
    const client = { clientId: "91E5715B1199038080D6D0296EBC1648", clientSecret: "a-b_c.d~e+f/g=" };
    standIn = await startXeroStandIn({ accessToken: token, tenants: [], client });
    const refreshToken = "xero-refresh-token-never-shown";
    const access = { revocationUrl: `${standIn.url}/connect/revocation`, ...client, refreshToken };
    const { xero } = connector();
    await xero.revoke(access);
    expect(standIn.revocations).toEqual([{ token: refreshToken, ...client }]);

    await expect(xero.revoke({ ...access, clientId: "someone-else" })).rejects.toMatchObject({
      status: 401,
      message: "Xero refused the revocation (401)",
      retryable: false,
    });
    standIn.failNext({ drop: true });
    const lost = await xero.revoke(access).catch((error: ConnectorError) => error);
    expect(lost).toBeInstanceOf(ConnectorError);
    expect(lost).toMatchObject({
      status: undefined,
      message: "Xero could not be reached for the revocation",
    });
    expect(standIn.revocations).toHaveLength(1);
  });
});
