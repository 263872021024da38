import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { defineContract } from "@varia/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError } from "./api-error";
import type { Clock } from "./clock";
import { memoryCookieJar } from "./cookies";
import { createApiClient } from "./create-api-client";
import { cacheLimits } from "./request-cache";

/** A clock whose sleeps pass at once and are recorded, and whose interval runs when told. */
function simulatedClock() {
  let now = 1_000_000;
  const sleeps: number[] = [];
  const intervals: (() => void)[] = [];
  const clock: Clock = {
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    every: (_ms, fn) => {
      intervals.push(fn);
      return () => intervals.splice(intervals.indexOf(fn), 1);
    },
  };
  return {
    clock,
    sleeps,
    advance: (ms: number) => {
      now += ms;
    },
    tick: () => {
      for (const fn of intervals) fn();
    },
  };
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
let handler: Handler;
const seen: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[] = [];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.setEncoding("latin1");
    req.on("data", (c: string) => {
      body += c;
    });
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen.length = 0;
});

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));

const items = defineContract({
  name: "Test/Items",
  method: "GET",
  root: "api",
  path: "Test/Items",
  query: z.object({ dateFrom: z.string(), clientID: z.string().optional() }),
  response: z.array(z.object({ id: z.number() })),
  responseKind: "json",
  access: "public",
});
const lookup = defineContract({
  name: "Test/Lookup",
  method: "GET",
  root: "api",
  path: "Test/Lookup",
  query: z.object({ q: z.string().optional() }),
  response: z.object({ n: z.number() }),
  responseKind: "json",
  access: "public",
  policy: "lookup",
});
const save = defineContract({
  name: "Test/Save",
  method: "POST",
  root: "api",
  path: "Test/Save",
  body: z.object({ name: z.string() }),
  response: z.void(),
  responseKind: "empty",
  access: "public",
});
const sso = defineContract({
  name: "Auth/SingleSignOn",
  method: "GET",
  root: "api",
  path: "Auth/SingleSignOn/{provider}",
  params: z.object({ provider: z.string() }),
  response: z.void(),
  responseKind: "empty",
  access: "public",
});
const download = defineContract({
  name: "Test/Download",
  method: "GET",
  root: "variance",
  path: "Test/Download",
  response: z.unknown(),
  responseKind: "file",
  access: "public",
});
const upload = defineContract({
  name: "Test/Upload",
  method: "POST",
  root: "api",
  path: "Test/Upload",
  response: z.object({ jobGuid: z.string() }),
  responseKind: "json",
  access: "public",
  policy: "never",
});

describe("parameter checks (spec 5)", () => {
  const client = {
    call: (...args: Parameters<ReturnType<typeof createApiClient>["call"]>) =>
      createApiClient({ baseUrl }).call(...args),
  };

  it("refuses a required parameter that is null or undefined", async () => {
    await expect(client.call(items, { query: {} })).rejects.toThrow(
      "The parameter 'dateFrom' must be defined and cannot be null.",
    );
    await expect(client.call(items, { query: { dateFrom: null } })).rejects.toThrow(
      "The parameter 'dateFrom' must be defined and cannot be null.",
    );
  });

  it("refuses an optional parameter that is explicitly null, and leaves out an undefined one", async () => {
    await expect(client.call(items, { query: { dateFrom: "2024-01", clientID: null } })).rejects.toThrow(
      "The parameter 'clientID' cannot be null.",
    );
    handler = (_req, res) => json(res, 200, [{ id: 1 }]);
    await client.call(items, { query: { dateFrom: { yearNo: 2024, monthNo: 3 }, clientID: undefined } });
    expect(seen[0]?.url).toBe("/api/Test/Items?dateFrom=2024-03");
  });

  it("refuses a missing provider", async () => {
    await expect(client.call(sso, { params: {} })).rejects.toThrow(
      "The parameter 'provider' must be defined.",
    );
  });
});

describe("answers and errors (spec 8)", () => {
  it("maps 400 to 'Bad Request' with the parsed body, 401 to 'Unauthorized', others to the generic message", async () => {
    const client = createApiClient({ baseUrl });
    handler = (_req, res) => json(res, 400, { message: "Invalid query: dateFrom" });
    const bad = await client.call(items, { query: { dateFrom: "x" } }).catch((e: ApiError) => e);
    expect(bad).toBeInstanceOf(ApiError);
    expect(bad).toMatchObject({
      message: "Bad Request",
      status: 400,
      result: { message: "Invalid query: dateFrom" },
    });
    handler = (_req, res) => json(res, 401, { message: "Unauthorized" });
    await expect(client.call(items, { query: { dateFrom: "x" } })).rejects.toMatchObject({
      message: "Unauthorized",
      status: 401,
    });
    handler = (_req, res) => json(res, 429, { message: "locked" }, { "retry-after": "900" });
    const locked = (await client.call(save, { body: { name: "a" } }).catch((e: ApiError) => e)) as ApiError;
    expect(locked.message).toBe("An unexpected server error occurred.");
    expect(locked.serverMessage).toBe("locked");
    expect(locked.headers["retry-after"]).toBe("900");
  });

  it("checks JSON answers against the contract", async () => {
    const client = createApiClient({ baseUrl });
    handler = (_req, res) => json(res, 200, [{ id: "not a number" }]);
    await expect(client.call(items, { query: { dateFrom: "x" } })).rejects.toThrow(
      /does not match its contract/,
    );
  });

  it("reads files with their names, and empty answers as undefined", async () => {
    const client = createApiClient({ baseUrl });
    handler = (_req, res) =>
      res
        .writeHead(200, {
          "content-type": "text/csv",
          "content-disposition": 'attachment; filename="raw.csv"',
        })
        .end("a,b\n");
    const file = await client.download(download);
    expect(file.fileName).toBe("raw.csv");
    expect(new TextDecoder().decode(file.data)).toBe("a,b\n");
    expect(seen[0]?.url).toBe("/api/variance/Test/Download");
    handler = (_req, res) => res.writeHead(200).end();
    expect(await client.call(save, { body: { name: "x" } })).toBeUndefined();
  });

  it("reports an unreachable server with status 0", async () => {
    const client = createApiClient({
      baseUrl: "http://127.0.0.1:1",
      random: () => 0.5,
      clock: simulatedClock().clock,
    });
    await expect(client.call(save, { body: { name: "x" } })).rejects.toMatchObject({ status: 0 });
  });
});

describe("cookies and XSRF", () => {
  it("keeps cookies and sends the XSRF cookie back as a header on unsafe calls only", async () => {
    const cookies = memoryCookieJar();
    const client = createApiClient({ baseUrl, cookies });
    handler = (_req, res) =>
      res
        .writeHead(200, {
          "set-cookie": ["varia_session=s1; Path=/; HttpOnly", "XSRF-TOKEN=abc.def; Path=/"],
        })
        .end();
    await client.call(save, { body: { name: "x" } });
    handler = (_req, res) => json(res, 200, [{ id: 1 }]);
    await client.call(items, { query: { dateFrom: "2024-01" } });
    handler = (_req, res) => res.writeHead(200).end();
    await client.call(save, { body: { name: "y" } });
    expect(seen[1]?.headers.cookie).toBe("varia_session=s1; XSRF-TOKEN=abc.def");
    expect(seen[1]?.headers["x-xsrf-token"]).toBeUndefined();
    expect(seen[2]?.headers["x-xsrf-token"]).toBe("abc.def");
    expect(seen[2]?.headers["content-type"]).toBe("application/json");
    expect(seen[2]?.body).toBe('{"name":"y"}');
  });

  it("sends the configured headers, such as a bearer token", async () => {
    const client = createApiClient({ baseUrl, headers: () => ({ authorization: "Bearer varia_x" }) });
    handler = (_req, res) => json(res, 200, [{ id: 1 }]);
    await client.call(items, { query: { dateFrom: "2024-01" } });
    expect(seen[0]?.headers.authorization).toBe("Bearer varia_x");
  });
});

describe("retries (spec 9)", () => {
  it("retries a GET twice on 5xx, 1500 ms then 3000 ms with about 10% jitter", async () => {
    const sim = simulatedClock();
    const client = createApiClient({ baseUrl, clock: sim.clock, random: () => 1 });
    handler = (_req, res) => json(res, 503, { message: "down" });
    await expect(client.call(items, { query: { dateFrom: "x" } })).rejects.toMatchObject({ status: 503 });
    expect(seen).toHaveLength(3);
    expect(sim.sleeps).toEqual([1650, 3300]);
    const low = simulatedClock();
    const client2 = createApiClient({ baseUrl, clock: low.clock, random: () => 0 });
    await client2.call(items, { query: { dateFrom: "x" } }).catch(() => {});
    expect(low.sleeps).toEqual([1350, 2700]);
  });

  it("succeeds when a retry succeeds", async () => {
    const sim = simulatedClock();
    const client = createApiClient({ baseUrl, clock: sim.clock, random: () => 0.5 });
    let n = 0;
    handler = (_req, res) => (++n === 1 ? json(res, 500, {}) : json(res, 200, [{ id: 7 }]));
    expect(await client.call(items, { query: { dateFrom: "x" } })).toEqual([{ id: 7 }]);
    expect(sim.sleeps).toEqual([1500]);
  });

  it("never retries a 4xx, a POST or an upload", async () => {
    const sim = simulatedClock();
    const client = createApiClient({ baseUrl, clock: sim.clock });
    handler = (_req, res) => json(res, 404, {});
    await client.call(items, { query: { dateFrom: "x" } }).catch(() => {});
    handler = (_req, res) => json(res, 500, {});
    await client.call(save, { body: { name: "x" } }).catch(() => {});
    await client.upload(upload, { file: new TextEncoder().encode("a\n"), fileName: "a.csv" }).catch(() => {});
    expect(seen).toHaveLength(3);
    expect(sim.sleeps).toEqual([]);
  });

  it("tries a lookup 3 times in all, 1.5 s apart", async () => {
    const sim = simulatedClock();
    const client = createApiClient({ baseUrl, clock: sim.clock });
    handler = (_req, res) => json(res, 502, {});
    await client.call(lookup, { query: { q: "a" } }).catch(() => {});
    expect(seen).toHaveLength(3);
    expect(sim.sleeps).toEqual([1500, 1500]);
  });
});

describe("the request cache (spec 7.8, 9)", () => {
  it("reuses a lookup for 20 minutes by parameter key", async () => {
    const sim = simulatedClock();
    const client = createApiClient({ baseUrl, clock: sim.clock });
    let n = 0;
    handler = (_req, res) => json(res, 200, { n: ++n });
    expect(await client.call(lookup, { query: { q: "a" } })).toEqual({ n: 1 });
    expect(await client.call(lookup, { query: { q: "a" } })).toEqual({ n: 1 });
    expect(await client.call(lookup, { query: { q: "b" } })).toEqual({ n: 2 });
    sim.advance(cacheLimits.defaultTtlMs - 1);
    expect(await client.call(lookup, { query: { q: "a" } })).toEqual({ n: 1 });
    sim.advance(1);
    expect(await client.call(lookup, { query: { q: "a" } })).toEqual({ n: 3 });
  });

  it("keeps a failed lookup for 1 minute only", async () => {
    const sim = simulatedClock();
    const client = createApiClient({ baseUrl, clock: sim.clock });
    handler = (_req, res) => json(res, 400, { message: "no" });
    await expect(client.call(lookup, { query: { q: "f" } })).rejects.toMatchObject({ status: 400 });
    handler = (_req, res) => json(res, 200, { n: 9 });
    await expect(client.call(lookup, { query: { q: "f" } })).rejects.toMatchObject({ status: 400 });
    sim.advance(60_000);
    expect(await client.call(lookup, { query: { q: "f" } })).toEqual({ n: 9 });
  });

  it("holds at most 150 items, dropping the oldest, and sweeps expired ones", async () => {
    const sim = simulatedClock();
    const client = createApiClient({ baseUrl, clock: sim.clock });
    handler = (req, res) =>
      json(res, 200, { n: Number(new URL(req.url ?? "", baseUrl).searchParams.get("q")) });
    for (let i = 0; i <= 150; i++) await client.call(lookup, { query: { q: String(i) } });
    const before = seen.length;
    await client.call(lookup, { query: { q: "150" } });
    expect(seen.length).toBe(before);
    await client.call(lookup, { query: { q: "0" } });
    expect(seen.length).toBe(before + 1);
  });

  it("caches contracts with their own time to live, such as actual periods for 60 s", async () => {
    const periods = defineContract({ ...items, name: "Test/Periods", query: undefined, cacheTtlMs: 60_000 });
    const sim = simulatedClock();
    const client = createApiClient({ baseUrl, clock: sim.clock });
    handler = (_req, res) => json(res, 200, [{ id: seen.length }]);
    const first = await client.call(periods);
    expect(await client.call(periods)).toEqual(first);
    sim.advance(60_000);
    sim.tick();
    expect(await client.call(periods)).not.toEqual(first);
  });
});

describe("uploads", () => {
  it("sends the file as the multipart part 'csv'", async () => {
    const client = createApiClient({ baseUrl });
    handler = (_req, res) => json(res, 200, { jobGuid: "j1" });
    const result = await client.upload(upload, {
      file: new TextEncoder().encode("InvoiceDate\n2024-01-01\n"),
      fileName: "lines.csv",
      headers: { "idempotency-key": "k1" },
    });
    expect(result).toEqual({ jobGuid: "j1" });
    expect(seen[0]?.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen[0]?.headers["idempotency-key"]).toBe("k1");
    expect(seen[0]?.body).toContain('name="csv"; filename="lines.csv"');
    expect(seen[0]?.body).toContain("InvoiceDate\n2024-01-01\n");
  });
});
