import { expect, vi } from "vitest";
import { createTokenForUser } from "../src/admin/organisations";
import { localFetch, type TestServer } from "./harness";

export const csvHeader =
  "InvoiceDate,InvoiceNumber,LineNumber,ClientCode,ClientName,ItemCode,ItemName,StockType,Quantity,UnitPrice,Amount,Cost,Salesperson,ServiceFrom,ServiceTo,RecordType,Category";

/**
 * May and June 2025 of a small organisation, each case of the reports once:
 * - C001 Acme Ltd (Jane): PRO 500.00 -> 550.00 at 5 seats (price +50, cost 100.00 -> 110.00),
 *   SUP (Hourly) 2 h 200.00 -> 3 h 330.00 (usage +100, price +30), SEAT added in June 40.00
 *   (service +40), and an Adhoc router 100.00 -> 250.00 (never in MRR).
 * - C002 Globex (Raj): PRO 300.00 in May only: lost (-300).
 * - C003 Initech (Raj): SEAT 3 x 40.00 = 120.00 in June only: acquired (+120).
 * - C004 "=cmd" (Jane in May, Raj in June): SEAT 10 -> 12 seats, 400.00 -> 504.00
 *   (volume (12-10) x 400/10 = +80, price +24), handed from Jane to Raj: Transfer -400 / +400.
 * MRR: May 700 + 300 + 400 = 1400.00; June 920 + 120 + 504 = 1544.00.
 */
export const reportCsv = [
  csvHeader,
  "2025-05-01,M-1,1,C001,Acme Ltd,PRO,Pro plan,Subscription,5,,500.00,100.00,Jane,,,Actual,Recurring",
  "2025-05-01,M-1,2,C001,Acme Ltd,SUP,Support,Hourly,2,,200.00,,Jane,,,Actual,Recurring",
  "2025-05-01,M-1,3,C001,Acme Ltd,HW,Router,Product,1,,100.00,,Jane,,,Actual,Adhoc",
  "2025-05-02,M-2,1,C002,Globex,PRO,Pro plan,Subscription,2,,300.00,,Raj,,,Actual,Recurring",
  "2025-05-03,M-3,1,C004,=cmd,SEAT,Seats,Subscription,10,,400.00,,Jane,,,Actual,Recurring",
  "2025-06-01,J-1,1,C001,Acme Ltd,PRO,Pro plan,Subscription,5,,550.00,110.00,Jane,,,Actual,Recurring",
  "2025-06-01,J-1,2,C001,Acme Ltd,SUP,Support,Hourly,3,,330.00,,Jane,,,Actual,Recurring",
  "2025-06-01,J-1,3,C001,Acme Ltd,SEAT,Seats,Subscription,1,,40.00,,Jane,,,Actual,Recurring",
  "2025-06-01,J-1,4,C001,Acme Ltd,HW,Router,Product,1,,250.00,180.00,Jane,,,Actual,Adhoc",
  "2025-06-02,J-2,1,C003,Initech,SEAT,Seats,Subscription,3,,120.00,,Raj,,,Actual,Recurring",
  "2025-06-03,J-3,1,C004,=cmd,SEAT,Seats,Subscription,12,,504.00,,Raj,,,Actual,Recurring",
  "",
].join("\n");

/** Another organisation's data, which must never appear in the first one's answers. */
export const otherCsv = [
  csvHeader,
  "2025-05-01,O-1,1,C900,Other Corp,PRO,Other plan,Subscription,1,,999.00,,Olga,,,Actual,Recurring",
  "2025-06-01,O-2,1,C900,Other Corp,PRO,Other plan,Subscription,1,,999.00,,Olga,,,Actual,Recurring",
  "",
].join("\n");

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: Uint8Array;
  // biome-ignore lint/suspicious/noExplicitAny: test answers are checked field by field
  json: any;
}

/** An organisation with an API token of its admin, its data imported from `csv`. */
export async function tenantWithData(ctx: TestServer, tenant: string, csv: string) {
  const org = await ctx.createOrganisation(tenant);
  const { token } = await createTokenForUser(ctx.database.db, { tenant, email: org.email, name: "reports" });

  async function call(method: string, path: string, body?: unknown, init: RequestInit = {}): Promise<Answer> {
    const response = await localFetch(`${ctx.tenantUrl(tenant)}${path}`, {
      method,
      ...init,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined && !(body instanceof FormData) ? { "content-type": "application/json" } : {}),
        ...(init.headers as Record<string, string>),
      },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    return {
      status: response.status,
      headers: response.headers,
      text,
      body: bytes,
      json: response.headers.get("content-type")?.includes("json") && text ? JSON.parse(text) : undefined,
    };
  }

  const form = new FormData();
  form.append("csv", new Blob([csv], { type: "text/csv" }), "lines.csv");
  const queued = await call("POST", "/api/import/upload", form);
  expect(queued.status).toBe(200);
  await vi.waitFor(
    async () => {
      const job = await call("GET", `/api/Import/GetJobStatus?JobGuid=${queued.json.jobGuid}`);
      expect(job.json.status).toBe("Completed");
    },
    { timeout: 30_000, interval: 50 },
  );
  return { ...org, token, call };
}

/** CSV text back into rows of cells (quoted cells with doubled quotes, CRLF line ends). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else if (ch !== "\r") cell += ch;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}
