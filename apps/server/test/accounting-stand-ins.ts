import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import Papa from "papaparse";
import type { QuickBooksInvoice, QuickBooksItem } from "../src/connectors/quickbooks/quickbooks-api";
import type { XeroCreditNote, XeroInvoice, XeroItem } from "../src/connectors/xero/xero-api";

/**
 * Local stand-ins for the accounting APIs (docs/integration.md, "Connectors"): real HTTP servers on
 * a free port that answer in QuickBooks' and Xero's documented shapes, check the bearer token
 * (401 otherwise) and page as the providers do. Point a connector's `apiUrl` at `url`.
 *
 * `failNext` queues answers given before the real ones, one per request, to test the error paths:
 * `{ status: 429, retryAfter: "2" }`, `{ status: 503 }`, `{ status: 200, body: "<html>" }` (a body
 * that is not the expected JSON), `{ hang: true }` (no answer until `release`, or `close`) or
 * `{ drop: true }` (the connection closed without an answer, as a provider out of reach). A fault
 * with a `path` waits for the next request to that path (e.g. "/api.xro/2.0/Invoices").
 */
export interface StandInFault {
  path?: string;
  status?: number;
  retryAfter?: string;
  body?: string;
  hang?: boolean;
  drop?: boolean;
}

/** A revocation a stand-in took: the token revoked and the client credentials of its HTTP Basic. */
export interface StandInRevocation {
  token: string;
  clientId: string;
  clientSecret: string;
}

/** One request a stand-in received (the token is not kept). */
export interface StandInRequest {
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
}

export interface AccountingStandIn {
  /** The API's base address: `ConnectorAccess.apiUrl`. */
  readonly url: string;
  readonly requests: StandInRequest[];
  /** The revocations it took (`POST` to its revocation path, answered 200), in order. */
  readonly revocations: StandInRevocation[];
  failNext(...faults: StandInFault[]): void;
  /** Answers every request a `hang` fault holds with `status` (default 503), as a provider that recovers. */
  release(status?: number): void;
  close(): Promise<void>;
}

type Answer = { status: number; body: unknown };
type Route = (request: StandInRequest) => Answer;

/**
 * The provider's token revocation endpoint (docs/integration.md, "Disconnecting"): `POST path` with
 * the client's HTTP Basic credentials and the token as a form (`token=…`, Xero) or JSON
 * (`{ "token": … }`, Intuit). Credentials other than `client`'s answer 401 `invalid_client`, a body
 * without a token 400 `invalid_request`; a revocation taken answers 200 without a body.
 */
interface RevocationEndpoint {
  path: string;
  body: "form" | "json";
  client: { clientId: string; clientSecret: string } | undefined;
}

/** A client id or secret of HTTP Basic, form-urlencoded (RFC 6749, 2.3.1). */
const formUrlDecode = (text: string) => decodeURIComponent(text.replace(/\+/g, " "));

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function revocation(
  endpoint: RevocationEndpoint,
  req: IncomingMessage,
  text: string,
): { answer: Answer; taken?: StandInRevocation } {
  const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1];
  const pair = basic ? Buffer.from(basic, "base64").toString("utf8") : "";
  const colon = pair.indexOf(":");
  const clientId = colon < 0 ? "" : formUrlDecode(pair.slice(0, colon));
  const clientSecret = colon < 0 ? "" : formUrlDecode(pair.slice(colon + 1));
  const known = endpoint.client;
  if (colon < 0 || (known && (clientId !== known.clientId || clientSecret !== known.clientSecret)))
    return { answer: { status: 401, body: { error: "invalid_client" } } };
  const type = req.headers["content-type"] ?? "";
  let token: unknown;
  if (endpoint.body === "form" && type.startsWith("application/x-www-form-urlencoded"))
    token = new URLSearchParams(text).get("token");
  else if (endpoint.body === "json" && type.startsWith("application/json"))
    try {
      token = (JSON.parse(text) as { token?: unknown }).token;
    } catch {
      token = undefined;
    }
  if (typeof token !== "string" || !token)
    return { answer: { status: 400, body: { error: "invalid_request" } } };
  return { answer: { status: 200, body: undefined }, taken: { token, clientId, clientSecret } };
}

/**
 * The bearer token a stand-in takes: one fixed token, or a check (an e2e test asks the stand-in
 * OpenID provider whether it issued the token).
 */
export type StandInToken = string | ((token: string) => Promise<boolean>);

async function startStandIn(
  accessToken: StandInToken,
  unauthorised: unknown,
  revocationEndpoint: RevocationEndpoint,
  route: Route,
): Promise<AccountingStandIn> {
  const faults: StandInFault[] = [];
  const requests: StandInRequest[] = [];
  const revocations: StandInRevocation[] = [];
  const hanging = new Set<ServerResponse>();
  const authorised = async (header: string | undefined) => {
    if (typeof accessToken === "string") return header === `Bearer ${accessToken}`;
    const token = /^Bearer (.+)$/.exec(header ?? "")?.[1];
    return token !== undefined && (await accessToken(token));
  };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    const request = { path: url.pathname, query: url.searchParams, headers: req.headers };
    requests.push(request);
    const at = faults.findIndex((f) => f.path === undefined || f.path === url.pathname);
    const fault = at < 0 ? undefined : faults.splice(at, 1)[0];
    if (fault?.hang) {
      hanging.add(res);
      return;
    }
    if (fault?.drop) {
      req.socket.destroy();
      return;
    }
    if (fault) {
      res.writeHead(fault.status ?? 200, {
        "content-type": fault.body === undefined ? "application/json" : "text/html",
        ...(fault.retryAfter === undefined ? {} : { "retry-after": fault.retryAfter }),
      });
      res.end(fault.body ?? JSON.stringify({ message: `stand-in fault ${fault.status}` }));
      return;
    }
    if (req.method === "POST" && url.pathname === revocationEndpoint.path) {
      const { answer, taken } = revocation(revocationEndpoint, req, await readBody(req));
      if (taken) revocations.push(taken);
      res.writeHead(answer.status, answer.body === undefined ? {} : { "content-type": "application/json" });
      res.end(answer.body === undefined ? undefined : JSON.stringify(answer.body));
      return;
    }
    const answer =
      req.method !== "GET"
        ? { status: 405, body: { message: "read-only stand-in" } }
        : !(await authorised(req.headers.authorization))
          ? { status: 401, body: unauthorised }
          : route(request);
    res.writeHead(answer.status, { "content-type": "application/json" });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    revocations,
    failNext: (...more) => faults.push(...more),
    release: (status = 503) => {
      for (const res of hanging) {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify({ message: `stand-in released with ${status}` }));
      }
      hanging.clear();
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface QuickBooksStandInOptions {
  accessToken: string;
  realmId: string;
  companyName: string;
  invoices: QuickBooksInvoice[];
  items: QuickBooksItem[];
  /** Credit memos (none unless given). */
  creditMemos?: QuickBooksInvoice[];
  /** Varia's client at Intuit, which the revocation endpoint takes alone (any, unless given). */
  client?: { clientId: string; clientSecret: string };
}

/**
 * QuickBooks Online v3: `GET /v3/company/{realmId}/companyinfo/{realmId}` and
 * `GET /v3/company/{realmId}/query?query=select * from Invoice|CreditMemo|Item … STARTPOSITION n MAXRESULTS m`
 * (at most 1000 a page; a `where` clause is not evaluated). Another realm answers 403, as
 * QuickBooks does for a company the token was not granted. Intuit's revocation endpoint
 * `POST /v2/oauth2/tokens/revoke` (JSON) is served too: point `VARIA_QUICKBOOKS_REVOCATION_URL` at it.
 */
export function startQuickBooksStandIn(options: QuickBooksStandInOptions): Promise<AccountingStandIn> {
  const fault = (code: string, message: string) => ({
    Fault: { Error: [{ Message: message, code }], type: "AUTHENTICATION" },
    time: new Date().toISOString(),
  });
  const revoke: RevocationEndpoint = {
    path: "/v2/oauth2/tokens/revoke",
    body: "json",
    client: options.client,
  };
  return startStandIn(options.accessToken, fault("3200", "AuthenticationFailed"), revoke, (request) => {
    const match = /^\/v3\/company\/([^/]+)\/(companyinfo\/[^/]+|query)$/.exec(request.path);
    if (!match) return { status: 404, body: { message: "no such path" } };
    if (decodeURIComponent(match[1]!) !== options.realmId) {
      return { status: 403, body: fault("003100", "ApplicationAuthorizationFailed") };
    }
    if (match[2]!.startsWith("companyinfo/")) {
      return {
        status: 200,
        body: { CompanyInfo: { Id: options.realmId, CompanyName: options.companyName }, time: "now" },
      };
    }
    const statement = request.query.get("query") ?? "";
    const entity = /\bfrom\s+(\w+)/i.exec(statement)?.[1];
    const rows = (
      { Invoice: options.invoices, CreditMemo: options.creditMemos ?? [], Item: options.items } as Record<
        string,
        unknown[]
      >
    )[entity ?? ""];
    if (!rows) return { status: 400, body: { Fault: { Error: [{ Message: "QueryParserError" }] } } };
    const start = Number(/STARTPOSITION\s+(\d+)/i.exec(statement)?.[1] ?? 1);
    const max = Math.min(1000, Number(/MAXRESULTS\s+(\d+)/i.exec(statement)?.[1] ?? 100));
    const page = rows.slice(start - 1, start - 1 + max);
    const response = page.length ? { [entity!]: page, startPosition: start, maxResults: page.length } : {};
    return { status: 200, body: { QueryResponse: response, time: "now" } };
  });
}

export interface XeroStandInTenant {
  tenantId: string;
  tenantName: string;
  /** "ORGANISATION" unless given ("PRACTICEMANAGER" and others are not read). */
  tenantType?: string;
  invoices: XeroInvoice[];
  items: XeroItem[];
  /** Sales credit notes (none unless given). */
  creditNotes?: XeroCreditNote[];
}

/**
 * Xero: `GET /connections`, and with the `xero-tenant-id` header `GET /api.xro/2.0/Items` and
 * `GET /api.xro/2.0/Invoices?where=Type=="ACCREC"&page=n` (100 a page; without `page`, the
 * invoices without their line items, as Xero answers), and `GET /api.xro/2.0/CreditNotes` the same
 * way. A tenant not connected answers 403. Xero's revocation endpoint `POST /connect/revocation`
 * (a form) is served too: point `VARIA_XERO_REVOCATION_URL` at it.
 */
export function startXeroStandIn(options: {
  accessToken: StandInToken;
  tenants: XeroStandInTenant[];
  /** Varia's client at Xero, which the revocation endpoint takes alone (any, unless given). */
  client?: { clientId: string; clientSecret: string };
}): Promise<AccountingStandIn> {
  const problem = (status: number, title: string) => ({
    Type: null,
    Title: title,
    Status: status,
    Detail: title,
  });
  const revoke: RevocationEndpoint = { path: "/connect/revocation", body: "form", client: options.client };
  return startStandIn(options.accessToken, problem(401, "Unauthorized"), revoke, (request) => {
    if (request.path === "/connections") {
      return {
        status: 200,
        body: options.tenants.map((t, i) => ({
          id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
          tenantId: t.tenantId,
          tenantType: t.tenantType ?? "ORGANISATION",
          tenantName: t.tenantName,
          createdDateUtc: "2026-01-01T00:00:00.0000000",
        })),
      };
    }
    const tenant = options.tenants.find((t) => t.tenantId === request.headers["xero-tenant-id"]);
    if (!tenant) return { status: 403, body: problem(403, "AuthenticationUnsuccessful") };
    const envelope = { Id: "stand-in", Status: "OK", ProviderName: "Varia", DateTimeUTC: "/Date(0)/" };
    if (request.path === "/api.xro/2.0/Items")
      return { status: 200, body: { ...envelope, Items: tenant.items } };
    const list =
      request.path === "/api.xro/2.0/Invoices"
        ? { key: "Invoices", rows: tenant.invoices }
        : request.path === "/api.xro/2.0/CreditNotes"
          ? { key: "CreditNotes", rows: tenant.creditNotes ?? [] }
          : null;
    if (!list) return { status: 404, body: problem(404, "Not Found") };
    const type = /^Type=="(\w+)"$/.exec(request.query.get("where") ?? "")?.[1];
    const rows: (XeroInvoice | XeroCreditNote)[] = list.rows.filter(
      (i) => type === undefined || i.Type === type,
    );
    const page = request.query.get("page");
    if (page === null) {
      return { status: 200, body: { ...envelope, [list.key]: rows.map(({ LineItems, ...rest }) => rest) } };
    }
    const n = Math.max(1, Number(page));
    return { status: 200, body: { ...envelope, [list.key]: rows.slice((n - 1) * 100, n * 100) } };
  });
}

type Row = Record<string, string>;
const table = (text: string) => Papa.parse<Row>(text, { header: true, skipEmptyLines: "greedy" }).data;
const optionalNumber = (text: string | undefined) => (text ? Number(text) : undefined);

/**
 * The QuickBooks API objects of the company whose Fivetran export is in `directory`
 * (invoice_data.csv, invoice_line_data.csv, item_data.csv): what the API would answer for it.
 * A line's LineNum is its export `index` + 1; lines of invoices not in the export have no
 * invoice to sit in and are left out.
 */
export function quickBooksApiFromExport(directory: string): {
  invoices: QuickBooksInvoice[];
  items: QuickBooksItem[];
} {
  const read = (file: string) =>
    table(readFileSync(join(directory, file), "utf8")).filter(
      (r) => (r._fivetran_deleted ?? "").toLowerCase() !== "true",
    );
  const items: QuickBooksItem[] = read("item_data.csv").map((r) => ({
    Id: r.id!,
    Name: r.name ?? "",
    ...(r.stock_keeping_unit ? { Sku: r.stock_keeping_unit } : {}),
    Type: r.type ?? "Service",
    ...(r.description ? { Description: r.description } : {}),
    Active: (r.active ?? "").toLowerCase() === "true",
    ...(r.purchase_cost ? { PurchaseCost: Number(r.purchase_cost) } : {}),
  }));
  const lines = new Map<string, Row[]>();
  for (const line of read("invoice_line_data.csv")) {
    const list = lines.get(line.invoice_id ?? "") ?? [];
    list.push(line);
    lines.set(line.invoice_id ?? "", list);
  }
  const invoices: QuickBooksInvoice[] = read("invoice_data.csv").map((r) => ({
    Id: r.id!,
    ...(r.doc_number ? { DocNumber: r.doc_number } : {}),
    TxnDate: r.transaction_date ?? "",
    CustomerRef: { value: r.customer_id ?? "" },
    CustomField: r.custom_sales_rep
      ? [{ DefinitionId: "1", Name: "Sales Rep", Type: "StringType", StringValue: r.custom_sales_rep }]
      : [],
    Line: (lines.get(r.id ?? "") ?? [])
      .sort((a, b) => Number(a.index) - Number(b.index))
      .map((l) => ({
        Id: String(Number(l.index) + 1),
        LineNum: Number(l.index) + 1,
        Amount: optionalNumber(l.amount),
        DetailType: l.detail_type ?? "",
        ...(l.detail_type === "SalesItemLineDetail"
          ? {
              SalesItemLineDetail: {
                ...(l.sales_item_item_id ? { ItemRef: { value: l.sales_item_item_id } } : {}),
                Qty: optionalNumber(l.sales_item_quantity),
                UnitPrice: optionalNumber(l.sales_item_unit_price),
                ...(l.sales_item_service_date ? { ServiceDate: l.sales_item_service_date } : {}),
              },
            }
          : {}),
      })),
  }));
  return { invoices, items };
}
