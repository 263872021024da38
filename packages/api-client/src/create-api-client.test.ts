import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "./api-error";
import { memoryCookieJar } from "./cookies";
import { createApiClient } from "./create-api-client";
import { simulatedClock } from "./testing/simulated-clock";
import { download, helpText, items, remove, replace, save, sso, upload } from "./testing/test-contracts";
import { json, startTestServer } from "./testing/test-server";

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.seen.length = 0;
});

/** A client on the test server with a simulated clock, so nothing here waits for a retry. */
function client(options: Parameters<typeof createApiClient>[0] = {}) {
  return createApiClient({ baseUrl: server.baseUrl, clock: simulatedClock().clock, ...options });
}

describe("client-side call checks (docs/api.md#answers-and-errors)", () => {
  it("refuses a required query parameter that is undefined or null, before calling", async () => {
    const api = client();
    const message = "The parameter 'dateFrom' must be defined and cannot be null.";
    // @ts-expect-error dateFrom is required
    await expect(api.call(items, { query: {} })).rejects.toThrow(message);
    // @ts-expect-error no query at all
    await expect(api.call(items)).rejects.toThrow(message);
    // @ts-expect-error dateFrom cannot be null
    await expect(api.call(items, { query: { dateFrom: null } })).rejects.toThrow(message);
    expect(server.seen).toHaveLength(0);
  });

  it("refuses an optional parameter that is explicitly null, and leaves out an undefined one", async () => {
    const api = client();
    await expect(
      // @ts-expect-error clientID cannot be null
      api.call(items, { query: { dateFrom: "2024-01", clientID: null } }),
    ).rejects.toThrow(/^The parameter 'clientID' cannot be null\.$/);
    expect(server.seen).toHaveLength(0);
    server.answer((_req, res) => json(res, 200, [{ id: 1 }]));
    await api.call(items, { query: { dateFrom: "2024-01", clientID: undefined } });
    expect(server.seen[0]?.url).toBe("/api/Test/Items?dateFrom=2024-01");
  });

  it("refuses a missing, null or empty path parameter such as the single-sign-on provider", async () => {
    const api = client();
    const message = "The parameter 'provider' must be defined.";
    // @ts-expect-error provider is required
    await expect(api.call(sso, { params: {} })).rejects.toThrow(message);
    // @ts-expect-error no params at all
    await expect(api.call(sso)).rejects.toThrow(message);
    // @ts-expect-error provider cannot be null
    await expect(api.call(sso, { params: { provider: null } })).rejects.toThrow(message);
    // @ts-expect-error nor empty
    await expect(api.call(sso, { params: { provider: "" } })).rejects.toThrow(message);
    expect(server.seen).toHaveLength(0);
    await api.call(sso, { params: { provider: "Xero" } });
    expect(server.seen[0]?.url).toBe("/api/Auth/SingleSignOn/Xero");
  });

  it("sends periods and dates as year-month, and arrays as repeated keys", async () => {
    const api = client();
    server.answer((_req, res) => json(res, 200, []));
    await api.call(items, {
      query: {
        dateFrom: { yearNo: 2024, monthNo: 3 },
        clientID: new Date(2025, 0, 31),
        months: ["2024-01", "2024-02"],
        adhoc: false,
      },
    });
    expect(server.seen[0]?.url).toBe(
      "/api/Test/Items?dateFrom=2024-03&clientID=2025-01&months=2024-01&months=2024-02&adhoc=false",
    );
  });
});

describe("answers and errors (docs/api.md#answers-and-errors)", () => {
  it("maps 400 to 'Bad Request' carrying the parsed body", async () => {
    server.answer((_req, res) =>
      json(res, 400, { message: "Invalid query: dateFrom" }, { "x-request-id": "r1" }),
    );
    const error = await client()
      .call(items, { query: { dateFrom: "x" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      message: "Bad Request",
      status: 400,
      response: '{"message":"Invalid query: dateFrom"}',
      result: { message: "Invalid query: dateFrom" },
      url: `${server.baseUrl}/api/Test/Items?dateFrom=x`,
    });
    expect((error as ApiError).headers["x-request-id"]).toBe("r1");
    expect((error as ApiError).serverMessage).toBe("Invalid query: dateFrom");
  });

  it("maps 401 to 'Unauthorized' and every other failure to the generic message", async () => {
    const api = client();
    server.answer((_req, res) => json(res, 401, { message: "Unauthorized" }));
    await expect(api.call(save, { body: { name: "a" } })).rejects.toMatchObject({
      message: "Unauthorized",
      status: 401,
    });
    for (const status of [403, 404, 409, 415, 429, 500, 503]) {
      server.answer((_req, res) => json(res, status, { message: `no ${status}` }, { "retry-after": "900" }));
      const error = (await api.call(save, { body: { name: "a" } }).catch((e: unknown) => e)) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect([error.message, error.status, error.serverMessage]).toEqual([
        "An unexpected server error occurred.",
        status,
        `no ${status}`,
      ]);
      expect(error.headers["retry-after"]).toBe("900");
    }
  });

  it("treats every 2xx as success, and a non-JSON error body as a raw response", async () => {
    const api = client();
    for (const status of [200, 201, 202, 204]) {
      server.answer((_req, res) => res.writeHead(status).end());
      expect(await api.call(save, { body: { name: "x" } })).toBeUndefined();
    }
    server.answer((_req, res) =>
      res.writeHead(502, { "content-type": "text/html" }).end("<h1>Bad gateway</h1>"),
    );
    await expect(api.call(save, { body: { name: "x" } })).rejects.toMatchObject({
      status: 502,
      response: "<h1>Bad gateway</h1>",
      result: undefined,
    });
  });

  it("checks JSON answers against the contract, and says so clearly when they do not match", async () => {
    const api = client();
    server.answer((_req, res) => json(res, 200, [{ id: "not a number" }]));
    await expect(api.call(items, { query: { dateFrom: "x" } })).rejects.toThrow(
      /^The answer of Test\/Items does not match its contract: 0\.id /,
    );
    server.answer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<html>"));
    await expect(api.call(items, { query: { dateFrom: "x" } })).rejects.toThrow(
      "The answer of Test/Items does not match its contract: it is not JSON (text/html)",
    );
    server.answer((_req, res) => json(res, 200, { ok: true }));
    expect(await api.call(replace, { body: { name: "x" } })).toEqual({ ok: true });
  });

  it("returns text answers raw", async () => {
    server.answer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<p>Help</p>"));
    expect(await client().call(helpText, { query: { key: "variance" } })).toBe("<p>Help</p>");
    expect(server.seen[0]?.url).toBe("/api/helpText?key=variance");
  });

  it("reads files whole, with the name from Content-Disposition", async () => {
    const api = client();
    const bytes = Buffer.from("Client,Amount\nÄrzte GmbH,10\n", "utf8");
    server.answer((_req, res) =>
      res
        .writeHead(200, {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="raw data.csv"; filename*=UTF-8''r%C3%A9sum%C3%A9.csv`,
        })
        .end(bytes),
    );
    const file = await api.call(download);
    expect(file.fileName).toBe("résumé.csv");
    expect(file.contentType).toBe("text/csv; charset=utf-8");
    expect(file.body).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(file.body).equals(bytes)).toBe(true);
    expect(server.seen[0]?.url).toBe("/api/variance/Test/Download");
    server.answer((_req, res) =>
      res.writeHead(200, { "content-disposition": "attachment; filename=template.csv" }).end("a"),
    );
    expect((await api.download(download)).fileName).toBe("template.csv");
    await expect(api.download(items as never)).rejects.toThrow("Test/Items does not answer with a file");
  });

  it("reports a server that cannot be reached with status 0 and the cause", async () => {
    const closed = await startTestServer();
    await closed.close(); // a port where nothing listens any more
    const api = createApiClient({ baseUrl: closed.baseUrl, clock: simulatedClock().clock });
    const error = (await api.call(save, { body: { name: "x" } }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe("The server could not be reached.");
    expect(error.status).toBe(0);
    expect(error.response).toMatch(/ECONNREFUSED/);
    expect(error.url).toBe(`${closed.baseUrl}/api/Test/Save`);
  });

  it("passes an abort through as the caller's own reason, and does not retry it", async () => {
    const sim = simulatedClock();
    const api = createApiClient({ baseUrl: server.baseUrl, clock: sim.clock });
    const controller = new AbortController();
    server.answer(() => controller.abort(new Error("stopped by the user")));
    await expect(
      api.call(items, { query: { dateFrom: "x" } }, { signal: controller.signal }),
    ).rejects.toThrow("stopped by the user");
    expect(server.seen).toHaveLength(1);
    expect(sim.sleeps).toEqual([]);
  });
});

describe("credentials, cookies and XSRF", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("sends credentials on every call, through the fetch it was given", async () => {
    const calls: RequestInit[] = [];
    const api = client({
      fetch: (input, init) => {
        calls.push(init ?? {});
        return fetch(input, init);
      },
    });
    server.answer((_req, res) => json(res, 200, [{ id: 1 }]));
    await api.call(items, { query: { dateFrom: "2024-01" } });
    server.answer((_req, res) => res.writeHead(204).end());
    await api.call(save, { body: { name: "x" } });
    expect(calls.map((c) => [c.method, c.credentials])).toEqual([
      ["GET", "include"],
      ["POST", "include"],
    ]);
  });

  it("keeps the session and XSRF cookies in Node, and echoes XSRF-TOKEN as X-XSRF-TOKEN on unsafe calls only", async () => {
    const api = client(); // no jar given: Node gets an in-memory one
    server.answer((_req, res) =>
      res
        .writeHead(200, {
          "set-cookie": ["varia_session=s1; Path=/; HttpOnly", "XSRF-TOKEN=abc.def; Path=/"],
        })
        .end(),
    );
    await api.call(save, { body: { name: "x" } });
    expect(server.seen[0]?.headers["x-xsrf-token"]).toBeUndefined();
    server.answer((_req, res) => json(res, 200, [{ id: 1 }]));
    await api.call(items, { query: { dateFrom: "2024-01" } });
    server.answer((_req, res) => json(res, 200, { ok: true }));
    await api.call(replace, { body: { name: "y" } });
    server.answer((_req, res) => res.writeHead(204).end());
    await api.call(remove, { query: { id: "1" } });
    await api.call(save, { body: { name: "z" } });
    expect(server.seen.map((r) => [r.method, r.headers.cookie, r.headers["x-xsrf-token"]])).toEqual([
      ["POST", undefined, undefined],
      ["GET", "varia_session=s1; XSRF-TOKEN=abc.def", undefined],
      ["PUT", "varia_session=s1; XSRF-TOKEN=abc.def", "abc.def"],
      ["DELETE", "varia_session=s1; XSRF-TOKEN=abc.def", "abc.def"],
      ["POST", "varia_session=s1; XSRF-TOKEN=abc.def", "abc.def"],
    ]);
    expect(server.seen[2]?.headers["content-type"]).toBe("application/json");
    expect(server.seen[2]?.body).toBe('{"name":"y"}');
  });

  it("forgets a cookie the server expires (sign-out)", async () => {
    const cookies = memoryCookieJar();
    const api = client({ cookies });
    server.answer((_req, res) => res.writeHead(200, { "set-cookie": ["varia_session=s1; Path=/"] }).end());
    await api.call(save, { body: { name: "x" } });
    server.answer((_req, res) =>
      res
        .writeHead(200, { "set-cookie": ["varia_session=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT"] })
        .end(),
    );
    await api.call(save, { body: { name: "x" } });
    await api.call(save, { body: { name: "x" } });
    expect(server.seen.map((r) => r.headers.cookie)).toEqual([undefined, "varia_session=s1", undefined]);
    expect(cookies.get("varia_session")).toBeUndefined();
  });

  it("reads the XSRF cookie from document.cookie in a browser, and leaves sending cookies to it", async () => {
    vi.stubGlobal("document", { cookie: "theme=dark; XSRF-TOKEN=t%2B1.sig" });
    const api = client();
    server.answer((_req, res) => res.writeHead(204).end());
    await api.call(save, { body: { name: "x" } });
    expect(server.seen[0]?.headers["x-xsrf-token"]).toBe("t+1.sig");
    expect(server.seen[0]?.headers.cookie).toBeUndefined();
  });

  it("sends the configured headers, such as a bearer token, asking for them at each call", async () => {
    let token = "varia_a";
    const api = client({ headers: () => ({ authorization: `Bearer ${token}` }) });
    server.answer((_req, res) => json(res, 200, [{ id: 1 }]));
    await api.call(items, { query: { dateFrom: "2024-01" } });
    token = "varia_b";
    await api.call(items, { query: { dateFrom: "2024-01" } });
    expect(server.seen.map((r) => r.headers.authorization)).toEqual(["Bearer varia_a", "Bearer varia_b"]);
  });
});

describe("uploads (docs/api.md#uploads-and-files)", () => {
  it("sends the file as the multipart part 'csv' with its name, headers, query and the XSRF header", async () => {
    const cookies = memoryCookieJar();
    cookies.store?.(["XSRF-TOKEN=x1"]);
    const api = client({ cookies });
    server.answer((_req, res) => json(res, 200, { jobGuid: "j1" }));
    const result = await api.upload(upload, {
      file: new TextEncoder().encode("InvoiceDate\n2024-01-01\n"),
      fileName: "lines.csv",
      query: { source: "cli" },
      headers: { "idempotency-key": "k1" },
    });
    expect(result).toEqual({ jobGuid: "j1" });
    const [request] = server.seen;
    expect(request?.url).toBe("/api/Test/Upload?source=cli");
    expect(request?.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(request?.headers["idempotency-key"]).toBe("k1");
    expect(request?.headers["x-xsrf-token"]).toBe("x1");
    expect(request?.body).toContain('name="csv"; filename="lines.csv"');
    expect(request?.body).toContain("InvoiceDate\n2024-01-01\n");
  });

  it("takes a Blob, and checks the query like any call", async () => {
    const api = client();
    server.answer((_req, res) => json(res, 200, { jobGuid: "j2" }));
    await api.upload(upload, { file: new Blob(["a,b\n"]), fileName: "b.csv" });
    expect(server.seen[0]?.body).toContain("a,b\n");
    await expect(
      // @ts-expect-error source cannot be null
      api.upload(upload, { file: new Blob(["a"]), fileName: "c.csv", query: { source: null } }),
    ).rejects.toThrow("The parameter 'source' cannot be null.");
    expect(server.seen).toHaveLength(1);
  });
});

describe("progress of files (the CLI's byte counts)", () => {
  it("streams an upload from the file with its exact length, telling the bytes sent, parsed like FormData", async () => {
    const api = client();
    server.answer((_req, res) => json(res, 200, { jobGuid: "j3" }));
    const content = "InvoiceDate,Amount\n".repeat(20_000);
    const heard: [number, number | undefined][] = [];
    const result = await api.upload(
      upload,
      {
        file: new Blob([content], { type: "text/csv" }),
        fileName: 'odd "name".csv',
        headers: { "idempotency-key": "k2" },
      },
      { onProgress: (bytes, total) => heard.push([bytes, total]) },
    );
    expect(result).toEqual({ jobGuid: "j3" });
    const request = server.seen[0]!;
    expect(Number(request.headers["content-length"])).toBe(request.body.length);
    expect(request.headers["idempotency-key"]).toBe("k2");
    // The body a server's multipart parser reads: the web platform's own parser here.
    const parsed = await new Response(Buffer.from(request.body, "latin1"), {
      headers: { "content-type": request.headers["content-type"]! },
    }).formData();
    const part = parsed.get("csv") as File;
    expect(part.name).toBe('odd "name".csv');
    expect(part.type).toBe("text/csv");
    expect(await part.text()).toBe(content);
    expect(heard[0]).toEqual([0, content.length]);
    expect(heard.at(-1)).toEqual([content.length, content.length]);
    expect(heard.every(([bytes], i) => i === 0 || bytes > heard[i - 1]![0])).toBe(true);
  });

  it("tells a download's bytes as they arrive, with the size the server sent", async () => {
    const api = client();
    const bytes = Buffer.alloc(300_000, "x");
    server.answer((_req, res) => res.writeHead(200, { "content-length": String(bytes.length) }).end(bytes));
    const heard: [number, number | undefined][] = [];
    const file = await api.download(download, {}, { onProgress: (n, total) => heard.push([n, total]) });
    expect(file.body.length).toBe(bytes.length);
    expect(heard[0]).toEqual([0, bytes.length]);
    expect(heard.at(-1)).toEqual([bytes.length, bytes.length]);
  });

  it("reports an answer cut off in the middle as a server that could not be reached", async () => {
    const api = client({ retry: false });
    server.answer((_req, res) => {
      res.writeHead(200, { "content-length": "1000" });
      res.write("only part of it");
      setImmediate(() => res.destroy());
    });
    const error = (await api.download(download).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(0);
    expect(error.message).toBe("The server could not be reached.");
    expect(error.cause).toBeDefined();
  });
});
