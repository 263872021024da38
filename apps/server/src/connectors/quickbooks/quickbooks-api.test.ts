import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import {
  type AccountingStandIn,
  quickBooksApiFromExport,
  startQuickBooksStandIn,
} from "../../../test/accounting-stand-ins";
import { parseInvoiceRows } from "../../imports/parse-invoice-file";
import type { InvoiceRow } from "../../imports/parse-invoice-rows";
import { ConnectorError } from "../connector";
import { convertQuickBooks } from "./convert-quickbooks";
import { createQuickBooksConnector, type QuickBooksInvoice, type QuickBooksItem } from "./quickbooks-api";

const sample = join(import.meta.dirname, "..", "..", "..", "test", "fixtures", "quickbooks-sample");
const token = "qb-access-token-never-shown";
const realmId = "9341453009712345";

let standIn: AccountingStandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

async function start(invoices: QuickBooksInvoice[], items: QuickBooksItem[]) {
  standIn = await startQuickBooksStandIn({
    accessToken: token,
    realmId,
    companyName: "Zorb Property",
    invoices,
    items,
  });
  return standIn;
}

/** A connector whose waits are recorded and return at once. */
function connector() {
  const waits: number[] = [];
  const qb = createQuickBooksConnector({
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
  return { qb, waits };
}

/** The file's lines as the import reads them, in key order, without their place in the file. */
async function rows(csv: string): Promise<Omit<InvoiceRow, "line">[]> {
  const out: Omit<InvoiceRow, "line">[] = [];
  for await (const parsed of parseInvoiceRows(Readable.from([csv]))) {
    expect(parsed.errors).toBeUndefined();
    const { line: _, ...row } = parsed.row!;
    out.push(row);
  }
  return out.sort((a, b) =>
    a.invoiceNumber === b.invoiceNumber
      ? a.lineNumber - b.lineNumber
      : a.invoiceNumber.localeCompare(b.invoiceNumber),
  );
}

const item = (Id: string, Name: string, extra: Partial<QuickBooksItem> = {}): QuickBooksItem => ({
  Id,
  Name,
  Type: "Service",
  ...extra,
});
const salesLine = (n: number, itemId: string | undefined, amount: number, qty?: number) => ({
  Id: String(n),
  LineNum: n,
  Amount: amount,
  DetailType: "SalesItemLineDetail",
  SalesItemLineDetail: { ...(itemId ? { ItemRef: { value: itemId } } : {}), ...(qty ? { Qty: qty } : {}) },
});

describe("the QuickBooks Online connector", () => {
  it("reads the sample company through the API as the same lines as its export's conversion", async () => {
    const api = quickBooksApiFromExport(sample);
    const { url, requests } = await start(api.invoices, api.items);
    const { qb } = connector();
    const access = { apiUrl: url, accessToken: token };

    expect(await qb.listSources(access, realmId)).toEqual([{ externalId: realmId, name: "Zorb Property" }]);
    const read = await qb.readInvoices(access, { externalId: realmId, name: "Zorb Property" });
    const converted = convertQuickBooks({
      invoices: readFileSync(join(sample, "invoice_data.csv"), "utf8"),
      invoiceLines: readFileSync(join(sample, "invoice_line_data.csv"), "utf8"),
      items: readFileSync(join(sample, "item_data.csv"), "utf8"),
    });

    expect(read.lineCount).toBe(converted.lineCount);
    expect(await rows(read.csv)).toEqual(await rows(converted.csv));
    // The export also reports lines of invoices it does not hold; the API has no such lines.
    const itemReasons = (skipped: { reason: string }[]) =>
      skipped
        .map((s) => /item \S+ is not in the item list/.exec(s.reason)?.[0])
        .filter(Boolean)
        .sort();
    const exportItemSkips = converted.skipped.filter((s) => s.reason.startsWith("item "));
    expect(read.skipped.length).toBeGreaterThan(0);
    expect(itemReasons(read.skipped)).toEqual(itemReasons(exportItemSkips));
    for (const s of read.skipped)
      expect(s.reason).toMatch(/^invoice \S+ line \d+: item \S+ is not in the item list$/);

    for (const r of requests) {
      expect(r.headers.accept).toBe("application/json");
      if (r.path.endsWith("/query")) expect(r.query.get("minorversion")).toBe("75");
    }
    expect(requests.map((r) => r.query.get("query")).filter(Boolean)).toEqual([
      "select * from Item where Active in (true, false) STARTPOSITION 1 MAXRESULTS 1000",
      "select * from Invoice STARTPOSITION 1 MAXRESULTS 1000",
      "select * from CreditMemo STARTPOSITION 1 MAXRESULTS 1000",
    ]);
  });

  it("reads credit memos as credits: quantity, amount and cost taken back, numbered apart from invoices", async () => {
    standIn = await startQuickBooksStandIn({
      accessToken: token,
      realmId,
      companyName: "Zorb Property",
      invoices: [
        {
          Id: "1",
          DocNumber: "1001",
          TxnDate: "2025-03-02",
          CustomerRef: { value: "7" },
          Line: [salesLine(1, "1", 300, 3)],
        },
      ],
      creditMemos: [
        {
          Id: "5",
          DocNumber: "1001",
          TxnDate: "2025-03-20",
          CustomerRef: { value: "7" },
          Line: [salesLine(1, "1", 100, 1)],
        },
        { Id: "6", TxnDate: "2025-03-21", CustomerRef: { value: "7" }, Line: [salesLine(1, "9", 50, 1)] },
      ],
      items: [item("1", "Core Subscription", { PurchaseCost: 20 })],
    });
    const read = await connector().qb.readInvoices(
      { apiUrl: standIn.url, accessToken: token },
      { externalId: realmId, name: "" },
    );
    const lines = await rows(read.csv);
    expect(
      lines.map((l) => [l.invoiceNumber, l.invoiceDate, l.quantity, l.amountCents, l.costCents]),
    ).toEqual([
      ["1001", "2025-03-02", "3.0000", 30000n, 6000n],
      ["CM-1001", "2025-03-20", "-1.0000", -10000n, -2000n],
    ]);
    expect(read.skipped).toEqual([
      { line: 3, reason: "credit memo QB-CM-6 line 1: item 9 is not in the item list" },
    ]);
  });

  it("maps an invoice line as the converter does: codes, names, classes, cost and sales rep", async () => {
    const invoice: QuickBooksInvoice = {
      Id: "88",
      TxnDate: "2025-03-02",
      CustomerRef: { value: "7", name: "Harbour Flats" },
      CustomField: [{ Name: "Sales Rep", StringValue: "Sam" }],
      Line: [
        salesLine(1, "5", 6200),
        {
          ...salesLine(2, "6", 598, 2),
          SalesItemLineDetail: { ItemRef: { value: "6" }, Qty: 2, UnitPrice: 299 },
        },
        { Id: "3", Amount: 6798, DetailType: "SubTotalLineDetail" },
        { Id: "4", LineNum: 4, Amount: -100, DetailType: "DiscountLineDetail" },
        salesLine(5, "8", -75.5, 1.5),
      ],
    };
    const items = [
      item("5", "Pro Subscription", { Sku: "SaaS-Pro" }),
      item("6", "Lock Kit", { Type: "Inventory", Sku: "LK-1", PurchaseCost: 131 }),
      item("8", "=Support hours", { Active: false }),
    ];
    const { url } = await start([invoice], items);
    const read = await connector().qb.readInvoices(
      { apiUrl: url, accessToken: token },
      { externalId: realmId, name: "" },
    );
    expect(read.csv.split("\n").slice(1, 4)).toEqual([
      "2025-03-02,QB-88,1,QB-7,Harbour Flats,SaaS-Pro,Pro Subscription,Subscription,1,,6200,,Sam,,,Actual,Recurring",
      "2025-03-02,QB-88,2,QB-7,Harbour Flats,LK-1,Lock Kit,Product,2,299,598,262.00,Sam,,,Actual,Adhoc",
      "2025-03-02,QB-88,5,QB-7,Harbour Flats,QB-ITEM-8,'=Support hours,Hourly,1.5,,-75.5,,Sam,,,Actual,Recurring",
    ]);
    expect(read.lineCount).toBe(3);
    expect(read.skipped).toEqual([]);
    expect((await rows(read.csv)).map((r) => r.amountCents)).toEqual([620000n, 59800n, -7550n]);
  });

  it("pages through more than one page of invoices", async () => {
    const invoices: QuickBooksInvoice[] = Array.from({ length: 1001 }, (_, i) => ({
      Id: String(i + 1),
      DocNumber: `INV-${i + 1}`,
      TxnDate: "2025-01-15",
      CustomerRef: { value: "1" },
      Line: [salesLine(1, "1", 10)],
    }));
    const { url, requests } = await start(invoices, [item("1", "Core Subscription")]);
    const read = await connector().qb.readInvoices(
      { apiUrl: url, accessToken: token },
      { externalId: realmId, name: "" },
    );
    expect(read.lineCount).toBe(1001);
    expect(read.csv).toContain("\n2025-01-15,INV-1001,1,");
    expect(requests.map((r) => /STARTPOSITION (\d+)/.exec(r.query.get("query") ?? "")?.[1])).toEqual([
      "1",
      "1",
      "1001",
      "1",
    ]);
  });

  it("reports a sales line without an item or with an unknown one, and a bundle line, and imports the rest", async () => {
    const invoice: QuickBooksInvoice = {
      Id: "1",
      DocNumber: "1001",
      TxnDate: "2025-03-02",
      CustomerRef: { value: "7" },
      Line: [
        salesLine(1, undefined, 50),
        salesLine(2, "9999", 50),
        salesLine(3, "1", 50),
        { Id: "4", LineNum: 4, Amount: 80, DetailType: "GroupLineDetail" },
      ],
    };
    const { url } = await start([invoice], [item("1", "Core Subscription")]);
    const read = await connector().qb.readInvoices(
      { apiUrl: url, accessToken: token },
      { externalId: realmId, name: "" },
    );
    expect(read.lineCount).toBe(1);
    expect(read.skipped).toEqual([
      { line: 1, reason: "invoice 1001 line 1: item (none) is not in the item list" },
      { line: 2, reason: "invoice 1001 line 2: item 9999 is not in the item list" },
      { line: 4, reason: "invoice 1001 line 4 is a bundle (group) line without its items" },
    ]);
  });

  it("reads a bundle's items as lines of their own, numbered after the invoice's lines", async () => {
    const invoice: QuickBooksInvoice = {
      Id: "1",
      DocNumber: "1001",
      TxnDate: "2025-03-02",
      CustomerRef: { value: "7" },
      Line: [
        salesLine(1, "1", 100),
        {
          Id: "2",
          LineNum: 2,
          Amount: 250,
          DetailType: "GroupLineDetail",
          GroupLineDetail: {
            GroupItemRef: { value: "50", name: "Starter bundle" },
            Quantity: 1,
            Line: [salesLine(1, "2", 200, 2), salesLine(2, "9999", 50)],
          },
        },
        salesLine(3, "1", 100),
        { Id: "4", LineNum: 4, Amount: 400, DetailType: "SubTotalLineDetail" },
      ],
    };
    const { url } = await start(
      [invoice],
      [item("1", "Core Subscription"), item("2", "Lock Kit", { Type: "Inventory" })],
    );
    const read = await connector().qb.readInvoices(
      { apiUrl: url, accessToken: token },
      { externalId: realmId, name: "" },
    );
    expect((await rows(read.csv)).map((r) => [r.lineNumber, r.itemCode, r.quantity, r.amountCents])).toEqual([
      [1, "QB-ITEM-1", "1.0000", 10000n],
      [3, "QB-ITEM-1", "1.0000", 10000n],
      [5, "QB-ITEM-2", "2.0000", 20000n],
    ]);
    expect(read.skipped).toEqual([
      { line: 3, reason: "invoice 1001 line 2, bundle item 2 (line 6): item 9999 is not in the item list" },
    ]);
  });

  it("refuses a wrong token with a clear, not retryable error that does not show the token", async () => {
    const { url } = await start([], []);
    const error = await connector()
      .qb.listSources({ apiUrl: url, accessToken: "stale-token" }, realmId)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect(error).toMatchObject({
      message: "QuickBooks refused the access token (401)",
      status: 401,
      retryable: false,
    });
    expect(String((error as Error).message)).not.toContain("stale-token");
  });

  it("waits a 429's Retry-After and asks again; fails retryable after three refusals", async () => {
    const { url, requests } = await start([], [item("1", "Core Subscription")]);
    const { qb, waits } = connector();
    const access = { apiUrl: url, accessToken: token };
    standIn!.failNext({ status: 429, retryAfter: "7" });
    expect(await qb.listSources(access, realmId)).toEqual([{ externalId: realmId, name: "Zorb Property" }]);
    expect(waits).toEqual([7000]);
    expect(requests).toHaveLength(2);

    standIn!.failNext({ status: 429 }, { status: 429, retryAfter: "1" }, { status: 429 }, { status: 429 });
    await expect(qb.listSources(access, realmId)).rejects.toMatchObject({ status: 429, retryable: true });
    expect(waits).toEqual([7000, 5000, 1000, 5000]);

    // A wait longer than a minute (a daily limit) ends the read at once, to be tried later.
    standIn!.failNext({ status: 429, retryAfter: "3600" });
    await expect(qb.listSources(access, realmId)).rejects.toMatchObject({
      message: expect.stringContaining("asks to wait 3600 s"),
      retryable: true,
    });
    expect(waits).toHaveLength(4);
  });

  it("makes a 503 a retryable error and a forbidden company a refusal", async () => {
    const { url } = await start([], []);
    const access = { apiUrl: url, accessToken: token };
    standIn!.failNext({ status: 503 });
    await expect(
      connector().qb.readInvoices(access, { externalId: realmId, name: "" }),
    ).rejects.toMatchObject({
      message: "QuickBooks failed to answer the Item query (503)",
      status: 503,
      retryable: true,
    });
    await expect(connector().qb.listSources(access, "111")).rejects.toMatchObject({
      status: 403,
      retryable: false,
    });
  });

  it("names what is missing from a body that is not the expected JSON", async () => {
    const { url } = await start(
      [{ Id: "1", TxnDate: "2025-03-02", CustomerRef: { value: "1" }, Line: [] }],
      [item("1", "Core Subscription")],
    );
    const access = { apiUrl: url, accessToken: token };
    const qb = connector().qb;
    standIn!.failNext({ status: 200, body: "<html>maintenance</html>" });
    await expect(qb.listSources(access, realmId)).rejects.toMatchObject({
      message: "QuickBooks answered the company's information with a body that is not JSON",
      retryable: false,
    });
    standIn!.failNext({ status: 200, body: JSON.stringify({ QueryResponse: { Item: [{ Id: "1" }] } }) });
    await expect(qb.readInvoices(access, { externalId: realmId, name: "" })).rejects.toThrow(
      /^QuickBooks answered the Item query without a valid QueryResponse\.Item\[0\]\.Name \(/,
    );
  });

  it("abandons a request that takes longer than its timeout", async () => {
    const { url } = await start([], []);
    standIn!.failNext({ hang: true });
    const qb = createQuickBooksConnector({ timeoutMs: 50 });
    await expect(qb.listSources({ apiUrl: url, accessToken: token }, realmId)).rejects.toMatchObject({
      message: "QuickBooks did not answer the company's information within 0.05 s",
      retryable: true,
    });
  });

  it("revokes a refresh token at Intuit as JSON with the client's Basic credentials; a refusal names its status, never the token", async () => {
    // A secret with the characters HTTP Basic must carry form-urlencoded (RFC 6749, 2.3.1).
    const client = { clientId: "ABntw7Q2client", clientSecret: "s3cr+t/with:odd chars" };
    standIn = await startQuickBooksStandIn({
      accessToken: token,
      realmId,
      companyName: "Craig's Design",
      invoices: [],
      items: [],
      client,
    });
    const refreshToken = "qb-refresh-token-never-shown";
    const access = { revocationUrl: `${standIn.url}/v2/oauth2/tokens/revoke`, ...client, refreshToken };
    const qb = createQuickBooksConnector({ timeoutMs: 200 });
    await qb.revoke(access);
    expect(standIn.revocations).toEqual([{ token: refreshToken, ...client }]);

    await expect(qb.revoke({ ...access, clientSecret: "another" })).rejects.toMatchObject({
      status: 401,
      message: "QuickBooks refused the revocation (401)",
      retryable: false,
    });
    standIn.failNext({ status: 503 });
    await expect(qb.revoke(access)).rejects.toMatchObject({
      status: 503,
      message: "QuickBooks failed to answer the revocation (503)",
      retryable: true,
    });
    standIn.failNext({ hang: true });
    const silent = await qb.revoke(access).catch((error: ConnectorError) => error);
    expect(silent).toBeInstanceOf(ConnectorError);
    expect(silent).toMatchObject({
      status: undefined,
      message: "QuickBooks did not answer the revocation within 0.2 s",
    });
    expect(standIn.revocations).toHaveLength(1);
  });
});
