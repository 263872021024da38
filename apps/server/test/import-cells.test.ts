import { expect, it, vi } from "vitest";
import { createTokenForUser } from "../src/admin/organisations";
import { invoiceColumns } from "../src/imports/invoice-columns";
import { describeWithServer, localFetch } from "./harness";

const header = invoiceColumns.join(",");
const row = (date: string, invoice: string, client = "C1", extra = "") =>
  `${date},${invoice},1,${client},Client,PRO,Pro,Subscription,1,,10.00,,,,,Actual,Recurring${extra}`;

/** Cells an import must flag, whichever way the reader reads them, through a real upload. */
describeWithServer("import cells", (ctx) => {
  async function importFile(tenant: string, content: string) {
    const org = await ctx().createOrganisation(tenant);
    const { token } = await createTokenForUser(ctx().database.db, { tenant, email: org.email, name: "t" });
    const call = async (path: string, init: RequestInit = {}) => {
      const answer = await localFetch(`${ctx().tenantUrl(tenant)}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}` },
      });
      return { status: answer.status, json: (await answer.json()) as Record<string, unknown> };
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
});
