import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, vi } from "vitest";
import { createOrganisation, createTokenForUser } from "../src/admin/organisations";
import { TokenCipher } from "../src/auth/token-cipher";
import { loadConfig, type ServerConfig } from "../src/config";
import type { ConnectorRegistry } from "../src/connectors/index";
import { type Database, openDatabase } from "../src/db/database";
import { migrate } from "../src/db/migrate";
import { type RunningServer, startServer } from "../src/server";

export type DatabaseKind = "pglite" | "postgres";

/** The databases every data-layer and API suite runs on: PGlite always, PostgreSQL when configured. */
export function testDatabaseKinds(): DatabaseKind[] {
  return process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
}

/** A fresh, migrated database: PGlite in memory, or a new database on the PostgreSQL server. */
export async function openTestDatabase(
  kind: DatabaseKind,
): Promise<{ database: Database; drop(): Promise<void> }> {
  if (kind === "pglite") {
    const database = await openDatabase({ kind: "pglite", dataDir: null });
    await migrate(database);
    return { database, drop: () => database.close() };
  }
  const base = process.env.TEST_DATABASE_URL!;
  const name = `varia_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: "postgres", url: url.toString() });
  await migrate(database);
  return {
    database,
    async drop() {
      await database.close();
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export interface TestServer {
  kind: DatabaseKind;
  url: string;
  server: RunningServer;
  database: Database;
  config: ServerConfig;
  /** The address of a tenant's site on this server (`http://<tenant>.localhost:<port>`). */
  tenantUrl(tenant: string): string;
  /** An organisation and its admin; MFA is off unless `mfaSetting` says otherwise. */
  createOrganisation(
    tenant: string,
    password?: string,
    mfaSetting?: "off" | "optional" | "required",
  ): Promise<{ email: string; password: string; organisationId: string; userId: string }>;
}

/** A simulated clock for lockout windows, code expiry and TOTP steps: it moves only when told. */
export class TestClock {
  private ms: number;
  constructor(start = Date.parse("2026-03-02T09:00:00Z")) {
    this.ms = start;
  }
  readonly now = () => new Date(this.ms);
  advance(ms: number) {
    this.ms += ms;
  }
}

export interface ServerOptions {
  /** Extra environment for the server's configuration, read when the server starts. */
  env?: () => Record<string, string>;
  clock?: TestClock;
  /** Receives the server's JSON log lines (at LOG_LEVEL, "silent" unless `env` says otherwise). */
  logStream?: { write(line: string): void };
  /** The accounting packages' connectors (stand-ins reaching local servers), read when the server starts. */
  connectors?: () => ConnectorRegistry;
}

/**
 * Runs `fn` once per database kind with a real server listening on a free port.
 * One server per file and kind: PGlite takes seconds to start.
 */
export function describeWithServer(
  name: string,
  fn: (ctx: () => TestServer) => void,
  options: ServerOptions = {},
) {
  for (const kind of testDatabaseKinds()) {
    describe(`${name} [${kind}]`, () => {
      let ctx: TestServer | undefined;
      let drop: (() => Promise<void>) | undefined;
      let dataDir: string | undefined;
      beforeAll(async () => {
        dataDir = mkdtempSync(join(tmpdir(), "varia-test-"));
        const opened = await openTestDatabase(kind);
        drop = opened.drop;
        const config = {
          ...loadConfig({
            PORT: "0",
            HOST: "127.0.0.1",
            VARIA_DATA_DIR: dataDir,
            LOG_LEVEL: "silent",
            ...options.env?.(),
          }),
        };
        const server = await startServer(config, {
          database: opened.database,
          logger: options.logStream !== undefined,
          ...(options.logStream ? { logStream: options.logStream } : {}),
          now: options.clock?.now,
          ...(options.connectors ? { connectors: options.connectors() } : {}),
        });
        const port = new URL(server.url).port;
        let counter = 0;
        ctx = {
          kind,
          url: server.url,
          server,
          database: opened.database,
          config,
          tenantUrl: (tenant) => `http://${tenant}.localhost:${port}`,
          async createOrganisation(
            tenant,
            password = `correct horse ${++counter} battery`,
            mfaSetting = "off",
          ) {
            const email = `admin@${tenant}.example.com`;
            const created = await createOrganisation(opened.database.db, {
              tenant,
              name: `${tenant} Ltd`,
              adminEmail: email,
              adminPassword: password,
            });
            await opened.database.db
              .updateTable("organisations")
              .set({ mfa_setting: mfaSetting })
              .where("id", "=", created.organisationId)
              .execute();
            return { email, password, organisationId: created.organisationId, userId: created.adminUserId };
          },
        };
      });
      afterAll(async () => {
        await ctx?.server.close();
        await drop?.();
        if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      });
      fn(() => {
        if (!ctx) throw new Error("the test server is not started");
        return ctx;
      });
    });
  }
}

/**
 * `fetch` as a browser on this machine calls a tenant's site: Node does not resolve `*.localhost`,
 * and its fetch will not send another Host, so a `*.localhost` address is reached at 127.0.0.1 with
 * the tenant's host name in the Host header. The request (JSON, text or FormData) is sent whole and
 * the answer read whole, as a `Response`.
 */
export async function localFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const target = new URL(url);
  if (!target.hostname.endsWith(".localhost")) return fetch(url, init);
  const request = new Request(url, init);
  const body = init.body === undefined || init.body === null ? undefined : await request.arrayBuffer();
  const headers: Record<string, string> = { host: target.host };
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (body) headers["content-length"] = String(body.byteLength);
  return new Promise<Response>((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: target.port,
        method: request.method,
        path: target.pathname + target.search,
        headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
              responseHeaders.append(name, v);
          const status = res.statusCode ?? 0;
          const nullBody = status === 204 || status === 304 || request.method === "HEAD";
          resolve(
            new Response(nullBody ? null : Buffer.concat(chunks), { status, headers: responseHeaders }),
          );
        });
      },
    );
    req.on("error", reject);
    req.end(body ? Buffer.from(body) : undefined);
  });
}

/** A minimal cookie-keeping HTTP client over fetch, for tests that act as a browser would. */
export class Browser {
  private cookies = new Map<string, string>();
  constructor(private readonly origin: string) {}

  cookie(name: string) {
    return this.cookies.get(name);
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const cookieHeader = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const origin = new URL(this.origin);
    // Connect to 127.0.0.1 and send the tenant's host name, as a browser resolving *.localhost does.
    const response = await new Promise<{ status: number; headers: Headers; text: string }>(
      (resolve, reject) => {
        const req = httpRequest(
          {
            host: "127.0.0.1",
            port: origin.port,
            method,
            path,
            headers: {
              host: origin.host,
              ...(cookieHeader ? { cookie: cookieHeader } : {}),
              ...(body !== undefined ? { "content-type": "application/json" } : {}),
              ...headers,
            },
          },
          (res) => {
            let text = "";
            res.setEncoding("utf8");
            res.on("data", (chunk: string) => {
              text += chunk;
            });
            res.on("end", () => {
              const h = new Headers();
              for (const [name, value] of Object.entries(res.headers)) {
                for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
                  h.append(name, v);
              }
              resolve({ status: res.statusCode ?? 0, headers: h, text });
            });
          },
        );
        req.on("error", reject);
        req.end(body === undefined ? undefined : JSON.stringify(body));
      },
    );
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...rest] = (pair ?? "").split("=");
      const value = rest.join("=");
      if (!name) continue;
      if (value === "" || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = response.text;
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return {
      status: response.status,
      headers: response.headers,
      text,
      json: json as Record<string, unknown>,
    };
  }
}

/** The job as Import/GetJobStatus answers it once it has ended (Completed, Failed or FailedPermanently). */
export async function finishedJob(site: Browser, jobGuid: string) {
  let job: Record<string, unknown> = {};
  await vi.waitFor(
    async () => {
      job = (await site.request("GET", `/api/Import/GetJobStatus?JobGuid=${jobGuid}`)).json;
      expect(["Completed", "Failed", "FailedPermanently"]).toContain(job.status);
    },
    { timeout: 30_000, interval: 50 },
  );
  return job;
}

/** The organisation's one connection: its id and the refresh token it holds, decrypted. */
export async function heldGrant(database: Database, organisationId: string) {
  const row = await database.db
    .selectFrom("connections")
    .select(["id", "refresh_token_encrypted"])
    .where("organisation_id", "=", organisationId)
    .executeTakeFirstOrThrow();
  const cipher = await TokenCipher.open(database.db);
  const refreshToken = cipher.decrypt(row.refresh_token_encrypted!, `${organisationId}/${row.id}/refresh`);
  return { id: row.id, refreshToken };
}

/**
 * A tenant's API called over real HTTP with an API token of its first admin (the organisation and the
 * token made on first use): `call` answers the status, headers, text and parsed JSON; `upload` sends
 * a CSV file as the import page does, with an idempotency key when given.
 */
export function apiTokenCalls(ctx: () => TestServer) {
  let tokens: Record<string, string> = {};
  async function token(tenant: string) {
    if (!tokens[tenant]) {
      const org = await ctx().createOrganisation(tenant);
      const created = await createTokenForUser(ctx().database.db, { tenant, email: org.email, name: "ops" });
      tokens = { ...tokens, [tenant]: created.token };
    }
    return tokens[tenant]!;
  }
  async function call(tenant: string, path: string, init: RequestInit = {}) {
    const response = await localFetch(`${ctx().tenantUrl(tenant)}${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${await token(tenant)}`,
        ...(init.headers as Record<string, string>),
      },
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      text,
      json: response.headers.get("content-type")?.includes("json") && text ? JSON.parse(text) : undefined,
    };
  }
  async function upload(tenant: string, content: string, options: { name?: string; key?: string } = {}) {
    const form = new FormData();
    form.append("csv", new Blob([content], { type: "text/csv" }), options.name ?? "lines.csv");
    return call(tenant, "/api/import/upload", {
      method: "POST",
      body: form,
      headers: options.key ? { "idempotency-key": options.key } : {},
    });
  }
  return { token, call, upload };
}
