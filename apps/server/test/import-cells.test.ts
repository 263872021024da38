import { expect, it, vi } from "vitest";
import { createTokenForUser } from "../src/admin/organisations";
import { invoiceColumns } from "../src/imports/invoice-columns";
import { describeWithServer, localFetch } from "./harness";

const header = invoiceColumns.join(",");
const row = (date: string, invoice: string, client = "C1", extra = "") =>
  `${date},${invoice},1,${client},Client,PRO,Pro,Subscription,1,,10.00,,,,,Actual,Recurring${extra}`;

/** Cells an import must flag, whichever way the reader reads them, through a real upload. */
describeWithServer("import cells", (ctx) => {
  async function importFile(tenant: string, content: string | Uint8Array<ArrayBuffer>) {
    const org = await ctx().createOrganisation(tenant);
    const { token } = await createTokenForUser(ctx().database.db, { tenant, email: org.email, name: "t" });
    const call = async (path: string, init: RequestInit = {}) => {
      const answer = await localFetch(`${ctx().tenantUrl(tenant)}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}` },
      });
      const text = await answer.text();
      const json = answer.headers.get("content-type")?.includes("json") ? JSON.parse(text) : {};
      return { status: answer.status, json: json as Record<string, unknown>, text };
    };
    const form = new FormData();
    form.append("csv", new Blob([content], { type: "text/csv" }), "lines.csv");
    const queued = await call("/api/import/upload", { method: "POST", body: form });
    expect(queued.status).toBe(200);
    let job: Record<string, unknown> = {};
    await vi.waitFor(
      async () => {
        job = (await call(`/api/Import/GetJobStatus?JobGuid=${queued.json.jobGuid}`)).json;
        expect(["Completed", "Failed", "FailedPermanently"]).toContain(job.status);
      },
      { timeout: 20_000, interval: 50 },
    );
    return { job, call };
  }

  it("flags a row with more fields than the header, and imports nothing", async () => {
    const { job, call } = await importFile(
      "extra",
      [
        header,
        row("2025-05-01", "INV-1"),
        row("2025-05-01", "INV-2", "C2", ",dropped"),
        row("2025-05-01", "INV-3", "C3", ","),
      ].join("\n"),
    );
    expect(job.status).toBe("Failed");
    expect(job.errors).toEqual([
      { line: 3, column: "field 18", message: "is beyond the header's 17 columns" },
      { line: 4, column: "field 18", message: "is beyond the header's 17 columns" },
    ]);
    const periods = await call("/api/variance/VarianceOverview/ActualPeriods");
    expect(periods.json).toEqual([]);
  });

  it("flags dates outside 1900 to 2999 and text holding NUL as bad cells, not as a failed job", async () => {
    const { job, call } = await importFile(
      "odd",
      [
        header,
        row("0000-05-01", "INV-1"),
        row("3000-01-01", "INV-2"),
        row("2025-05-01", "INV-3", "C\u00003"),
      ].join("\n"),
    );
    expect(job.status).toBe("Failed");
    expect(job.errors).toEqual([
      { line: 2, column: "InvoiceDate", message: "'0000-05-01' is not a date from 1900-01-01 to 2999-12-31" },
      { line: 3, column: "InvoiceDate", message: "'3000-01-01' is not a date from 1900-01-01 to 2999-12-31" },
      { line: 4, column: "ClientCode", message: "holds the NUL character" },
    ]);
    expect((await call("/api/variance/VarianceOverview/ActualPeriods")).status).toBe(200);
  });

  it("flags cells that are not UTF-8 (a file saved as Windows-1252) by line and column, and imports nothing", async () => {
    const lines = [
      "InvoiceDate,InvoiceNumber,ClientCode,ClientName,ItemCode,ItemName,StockType,Quantity,Amount,Salesperson",
      "2025-05-01,INV-1,C1,Société Générale,PRO,Pro,Subscription,1,10.00,Ann",
      "2025-05-01,INV-2,C2,Acme,CAFÉ,Café plan,Subscription,1,10.00,José",
      "2025-05-01,INV-3,C3,Plain,PRO,Pro,Subscription,1,10.00,Ann",
    ];
    // What a spreadsheet's plain "CSV" writes on Windows: one byte a character, é as 0xE9.
    const windows1252 = new Uint8Array(Buffer.from(lines.join("\r\n"), "latin1"));
    const { job, call } = await importFile("latin", windows1252);
    expect(job.status).toBe("Failed");
    expect(job.message).toBe("The file has 4 invalid cells; nothing was imported");
    const notUtf8 = "is not UTF-8 text: save the file as CSV UTF-8";
    expect(job.errors).toEqual([
      { line: 2, column: "ClientName", message: notUtf8 },
      { line: 3, column: "ItemCode", message: notUtf8 },
      { line: 3, column: "ItemName", message: notUtf8 },
      { line: 3, column: "Salesperson", message: notUtf8 },
    ]);
    expect((await call("/api/variance/VarianceOverview/ActualPeriods")).json).toEqual([]);

    // The same file saved as CSV UTF-8 imports, its names as they were written.
    const utf8 = await importFile("latin-fixed", lines.join("\r\n"));
    expect(utf8.job.status).toBe("Completed");
    const raw = await utf8.call("/api/variance/Data/ExportRawData?dateFrom=2025-05&dateTo=2025-05");
    expect(raw.status).toBe(200);
    expect(raw.text).toContain(",C1,Société Générale,PRO,");
    expect(raw.text).toContain(",C2,Acme,CAFÉ,Café plan,");
    expect(raw.text).toContain("José");
  });

  it("names the cell whose quote is never closed, not the cells the rest of the file left empty", async () => {
    const { job, call } = await importFile(
      "quote",
      [
        "InvoiceDate,InvoiceNumber,ClientCode,ClientName,ItemCode,StockType,Quantity,Amount",
        '2025-05-01,INV-1,C1,"Smith, Jones",PRO,Subscription,1,10.00',
        '2025-05-01,INV-2,C2,"Acme Ltd,PRO,Subscription,1,10.00',
        "2025-05-01,INV-3,C3,Plain,PRO,Subscription,1,10.00",
        "",
      ].join("\n"),
    );
    expect(job.status).toBe("Failed");
    expect(job.errors).toEqual([
      {
        line: 3,
        column: "ClientName",
        message: "opens a quote that is never closed, so the rest of the file was read into this cell",
      },
    ]);
    expect((await call("/api/variance/VarianceOverview/ActualPeriods")).json).toEqual([]);
  });

  it("names lines as a spreadsheet numbers its rows: blank rows count", async () => {
    const { job } = await importFile(
      "blanks",
      [
        "InvoiceDate,InvoiceNumber,LineNumber,ClientCode,ItemCode,StockType,Quantity,Amount",
        "2025-05-01,INV-1,1,C1,PRO,Subscription,1,10.00",
        "",
        ",,,,,,,",
        "2025-05-01,INV-2,1,C1,PRO,Subscription,1,abc",
        "",
        "2025-05-01,INV-1,1,C1,PRO,Subscription,1,10.00",
      ].join("\r\n"),
    );
    expect(job.status).toBe("Failed");
    expect(job.errors).toEqual([
      { line: 5, column: "Amount", message: "'abc' is not an amount with at most 2 decimals" },
      { line: 7, column: "LineNumber", message: "invoice INV-1 line 1 is also on line 2" },
    ]);
  });
});
