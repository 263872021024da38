import { type Contract, contractPath, type ResponseOf } from "@varia/contracts";
import { ApiError, errorForStatus, errorMessages } from "./api-error";
import { type Clock, systemClock } from "./clock";
import { type CookieJar, documentCookieJar } from "./cookies";
import { buildQueryString, checkQuery } from "./query-string";
import { cacheLimits, RequestCache } from "./request-cache";
import { retryDelays, withRetries } from "./retry";

export interface ApiClientOptions {
  /** The server's origin, e.g. `http://localhost:8080`; '' (the default) for the page's own origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Headers for every call, e.g. `Authorization: Bearer ...` for API tokens. */
  headers?: () => Record<string, string>;
  clock?: Clock;
  random?: () => number;
  cookies?: CookieJar;
  /** The FormData class that belongs with `fetch` (undici's own when `fetch` is undici's). */
  FormData?: typeof FormData;
}

export interface CallInput {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Cache this GET even if its contract does not ask for it. */
  cache?: boolean;
}

/** A downloaded file (responseKind `file`). */
export interface FileResponse {
  fileName: string | undefined;
  contentType: string;
  data: Uint8Array;
}

export interface UploadInput {
  file: Blob | Uint8Array;
  fileName: string;
  query?: Record<string, unknown>;
  params?: Record<string, string>;
  headers?: Record<string, string>;
}

export interface ApiClient {
  call<C extends Contract>(contract: C, input?: CallInput, options?: CallOptions): Promise<ResponseOf<C>>;
  /** A call whose answer is a file (responseKind `file`). */
  download(contract: Contract, input?: CallInput, options?: CallOptions): Promise<FileResponse>;
  /** A multipart upload with the file in the part `csv` (spec 5); never retried. */
  upload<C extends Contract>(
    contract: C,
    input: UploadInput,
    options?: { signal?: AbortSignal },
  ): Promise<ResponseOf<C>>;
  /** Forgets every cached result (after sign-in or sign-out). */
  clearCache(): void;
  dispose(): void;
}

const unsafe = new Set(["POST", "PUT", "DELETE", "PATCH"]);

function headersOf(response: Response): Record<string, string> {
  const out: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

function fileNameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (star?.[1]) return decodeURIComponent(star[1]);
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1];
}

/** The typed client over the contracts, for the browser (fetch) and Node (undici's fetch). */
export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const baseUrl = (options.baseUrl ?? "").replace(/\/$/, "");
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const cookies = options.cookies ?? documentCookieJar();
  const cache = new RequestCache(clock);

  async function send(contract: Contract, init: RequestInit & { url: string }): Promise<unknown> {
    const headers = new Headers(init.headers);
    for (const [name, value] of Object.entries(options.headers?.() ?? {})) headers.set(name, value);
    const xsrf = cookies.get("XSRF-TOKEN");
    if (xsrf && unsafe.has(contract.method)) headers.set("X-XSRF-TOKEN", xsrf);
    const cookieHeader = cookies.header?.();
    if (cookieHeader) headers.set("cookie", cookieHeader);
    let response: Response;
    try {
      response = await doFetch(init.url, { ...init, headers, credentials: "include" });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw new ApiError(errorMessages.unreachable, 0, String((error as Error).message ?? error), {});
    }
    const setCookie =
      (response.headers as Headers & { getSetCookie?: () => string[] }).getSetCookie?.() ?? [];
    if (setCookie.length) cookies.store?.(setCookie);
    if (response.status < 200 || response.status > 299) {
      throw errorForStatus(response.status, await response.text(), headersOf(response));
    }
    switch (contract.responseKind) {
      case "empty":
        await response.arrayBuffer();
        return undefined;
      case "text":
        return response.text();
      case "file":
        return {
          fileName: fileNameOf(response.headers.get("content-disposition")),
          contentType: response.headers.get("content-type") ?? "application/octet-stream",
          data: new Uint8Array(await response.arrayBuffer()),
        } satisfies FileResponse;
      case "json": {
        const text = await response.text();
        const parsed = contract.response.safeParse(text ? JSON.parse(text) : undefined);
        if (!parsed.success) {
          throw new ApiError(
            `The answer of ${contract.name} does not match its contract: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`,
            response.status,
            text,
            headersOf(response),
          );
        }
        return parsed.data;
      }
    }
  }

  function urlOf(contract: Contract, input: CallInput | UploadInput) {
    checkQuery(contract, input.query);
    return baseUrl + contractPath(contract, input.params) + buildQueryString(input.query);
  }

  function call(contract: Contract, input: CallInput = {}, callOptions: CallOptions = {}): Promise<unknown> {
    let url: string;
    try {
      url = urlOf(contract, input);
    } catch (error) {
      return Promise.reject(error);
    }
    const hasBody = contract.method !== "GET" && input.body !== undefined;
    const run = () =>
      send(contract, {
        url,
        method: contract.method,
        signal: callOptions.signal,
        headers: hasBody ? { "content-type": "application/json" } : {},
        body: hasBody ? JSON.stringify(input.body) : undefined,
      });
    const policy = contract.policy ?? "default";
    const attempt =
      contract.method === "GET"
        ? () => withRetries(run, retryDelays(policy, random), clock, callOptions.signal)
        : run;
    const cacheable =
      contract.method === "GET" &&
      (callOptions.cache || policy === "lookup" || contract.cacheTtlMs !== undefined);
    return cacheable ? cache.get(url, contract.cacheTtlMs ?? cacheLimits.defaultTtlMs, attempt) : attempt();
  }

  return {
    call: call as ApiClient["call"],

    download(contract, input, callOptions) {
      if (contract.responseKind !== "file") {
        return Promise.reject(new Error(`${contract.name} does not answer with a file`));
      }
      return call(contract, input, callOptions) as Promise<FileResponse>;
    },

    async upload(contract, input, uploadOptions = {}) {
      const url = urlOf(contract, input);
      const form = new (options.FormData ?? FormData)();
      const blob =
        input.file instanceof Blob
          ? input.file
          : new Blob([new Uint8Array(input.file)], { type: "text/csv" });
      form.append("csv", blob, input.fileName);
      return send(contract, {
        url,
        method: contract.method,
        body: form,
        headers: input.headers,
        signal: uploadOptions.signal,
      }) as Promise<never>;
    },

    clearCache: () => cache.clear(),
    dispose: () => cache.dispose(),
  };
}
