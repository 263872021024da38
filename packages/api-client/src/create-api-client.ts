import type { BodyOf, Contract, ParamsOf, QueryOf, ResponseOf } from "@varia/contracts";
import type { Period } from "@varia/period";
import type { z } from "zod";
import { ApiError, unreachableError } from "./api-error";
import { type Clock, systemClock } from "./clock";
import { type CookieJar, defaultCookieJar } from "./cookies";
import { fillPath } from "./fill-path";
import { multipartFileBody } from "./multipart-stream";
import { buildQueryString, checkQuery } from "./query-string";
import { type FileResponse, type ProgressListener, readResponse } from "./read-response";
import { cacheLimits, RequestCache } from "./request-cache";
import { retryDelays, withRetries } from "./retry";

export interface ApiClientOptions {
  /** The server's origin, e.g. `http://localhost:8080`; '' (the default) for the page's own origin. */
  baseUrl?: string;
  /** The fetch to call (the CLI passes undici's); default `globalThis.fetch`, looked up at each call. */
  fetch?: typeof fetch;
  /** Headers for every call, e.g. `{ authorization: "Bearer ..." }` for API tokens. */
  headers?: () => Record<string, string>;
  /** Time for retries and the cache; tests pass a simulated one. */
  clock?: Clock;
  /** For the retry jitter; default Math.random. */
  random?: () => number;
  /** Default: `document.cookie` in a browser, an in-memory jar in Node. */
  cookies?: CookieJar;
  /** The FormData class that belongs with `fetch` (undici's own when `fetch` is undici's). */
  FormData?: typeof FormData;
  /**
   * `false`: no call is ever retried (the CLI's smoke test times single requests). Default: GETs
   * retry as their contract's policy says.
   */
  retry?: boolean;
  /**
   * Called after the cache is emptied (a `changesData` call succeeded, or `clearCache`), so that
   * answers kept outside the client (the web app's shared card calls) are forgotten too.
   */
  onCacheCleared?: () => void;
}

/**
 * A query as the client takes it: the contract's own input, where a text parameter may also be given
 * as a period or a Date (sent as year-month, docs/api.md#filter-parameters).
 */
export type QueryInput<Q> = {
  [K in keyof Q]: Q[K] | (string extends Q[K] ? Period | Date : never);
};

/** One part of a call's input: absent when the contract has none, required when any of it is. */
type InputPart<Name extends string, T> = [T] extends [never]
  ? { [P in Name]?: never }
  : Record<string, never> extends T
    ? { [P in Name]?: T }
    : { [P in Name]: T };

/** The input of a call: path parameters, query and body, typed by the contract. */
export type CallInput<C extends Contract = Contract> = InputPart<"params", ParamsOf<C>> &
  InputPart<"query", QueryInput<QueryOf<C>>> &
  InputPart<"body", BodyOf<C>>;

/** The arguments after the contract: the input may be left out when nothing in it is required. */
export type CallArgs<C extends Contract> =
  Record<string, never> extends CallInput<C>
    ? [input?: CallInput<C>, options?: CallOptions]
    : [input: CallInput<C>, options?: CallOptions];

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * `true` caches this GET even if its contract does not ask for it; `false` neither reads nor
   * fills the cache. By default lookups and contracts with a `cacheTtlMs` are cached.
   */
  cache?: boolean;
  /** For `file` answers: hears the bytes received so far (and the size, when the server sent it). */
  onProgress?: ProgressListener;
}

export interface UploadOptions {
  signal?: AbortSignal;
  /**
   * Hears the file's bytes sent so far and its size. With it, the body is streamed from the file
   * (`duplex: "half"`, Node's fetch) instead of sent as FormData.
   */
  onProgress?: ProgressListener;
}

export type UploadInput<C extends Contract = Contract> = Omit<CallInput<C>, "body"> & {
  file: Blob | Uint8Array;
  fileName: string;
  /** e.g. `{ "idempotency-key": ... }` */
  headers?: Record<string, string>;
};

/** What a call answers: a FileResponse for `file` contracts, otherwise the contract's response type. */
export type CallResult<C> =
  C extends Contract<z.ZodType, z.ZodType, z.ZodType, z.ZodType, infer K>
    ? [K] extends ["file"]
      ? FileResponse
      : ResponseOf<C>
    : never;

export interface ApiClient {
  call<C extends Contract>(contract: C, ...args: CallArgs<C>): Promise<CallResult<C>>;
  /** A call whose answer is a file (responseKind `file`); refuses other contracts. */
  download<C extends Contract<z.ZodType, z.ZodType, z.ZodType, z.ZodType, "file">>(
    contract: C,
    ...args: CallArgs<C>
  ): Promise<FileResponse>;
  /** A multipart upload with the file in the part `csv` (docs/api.md#uploads-and-files); never retried. */
  upload<C extends Contract>(
    contract: C,
    input: UploadInput<C>,
    options?: UploadOptions,
  ): Promise<CallResult<C>>;
  /** Forgets every cached result (after sign-in or sign-out). */
  clearCache(): void;
  /** Stops the cache's expiry sweep. */
  dispose(): void;
}

interface LooseInput {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

const unsafeMethods = new Set(["POST", "PUT", "DELETE", "PATCH"]);

/** Resolves with `promise`, or rejects when the caller's `signal` aborts first. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** The typed client over the contracts, for the browser (fetch) and Node (undici's fetch). */
export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const baseUrl = (options.baseUrl ?? "").replace(/\/+$/, "");
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const cookies = options.cookies ?? defaultCookieJar();
  const cache = new RequestCache(clock);

  async function send(
    contract: Contract,
    url: string,
    init: RequestInit,
    onProgress?: ProgressListener,
  ): Promise<unknown> {
    const headers = new Headers(init.headers);
    for (const [name, value] of Object.entries(options.headers?.() ?? {})) headers.set(name, value);
    const xsrf = cookies.get("XSRF-TOKEN");
    if (xsrf && unsafeMethods.has(contract.method)) headers.set("X-XSRF-TOKEN", xsrf);
    const cookieHeader = cookies.header?.();
    if (cookieHeader) headers.set("cookie", cookieHeader);
    let response: Response;
    try {
      response = await doFetch(url, { ...init, method: contract.method, headers, credentials: "include" });
    } catch (error) {
      if (init.signal?.aborted) throw init.signal.reason ?? error;
      throw unreachableError(error, url, contract.method);
    }
    const setCookie = response.headers.getSetCookie?.() ?? [];
    if (setCookie.length) cookies.store?.(setCookie);
    try {
      return await readResponse(contract, response, url, onProgress);
    } catch (error) {
      // The answer stopped coming (the connection closed, or a timeout of the fetch beneath).
      if (error instanceof ApiError) throw error;
      if (init.signal?.aborted) throw init.signal.reason ?? error;
      throw unreachableError(error, url, contract.method);
    }
  }

  function urlOf(contract: Contract, input: LooseInput): string {
    const path = fillPath(contract, input.params);
    checkQuery(contract, input.query);
    return baseUrl + path + buildQueryString(input.query);
  }

  function call(contract: Contract, input: LooseInput = {}, callOptions: CallOptions = {}): Promise<unknown> {
    let url: string;
    try {
      url = urlOf(contract, input);
    } catch (error) {
      return Promise.reject(error);
    }
    const isGet = contract.method === "GET";
    const hasBody = !isGet && input.body !== undefined;
    const policy = contract.policy ?? "default";
    const attempt = (signal: AbortSignal | undefined) => () =>
      send(
        contract,
        url,
        {
          signal,
          headers: hasBody ? { "content-type": "application/json" } : {},
          body: hasBody ? JSON.stringify(input.body) : undefined,
        },
        callOptions.onProgress,
      );
    // docs/api.md#retries-and-caching: only GETs retry; 4xx never does.
    const run = (signal: AbortSignal | undefined) =>
      isGet && options.retry !== false
        ? withRetries(attempt(signal), retryDelays(policy, random), clock, signal)
        : attempt(signal)();
    // A call that changes what others answer (an exclusion list, categories) empties the cache.
    if (contract.changesData)
      return run(callOptions.signal).then((result) => {
        cache.clear();
        options.onCacheCleared?.();
        return result;
      });
    const cacheable =
      isGet && (callOptions.cache ?? (policy === "lookup" || contract.cacheTtlMs !== undefined));
    if (!cacheable) return run(callOptions.signal);
    // A cached load is shared, so it runs without any one caller's signal; each caller stops waiting
    // on its own abort, and an abort is never cached as a failure.
    const shared = cache.get(url, contract.cacheTtlMs ?? cacheLimits.defaultTtlMs, () => run(undefined));
    return untilAborted(shared, callOptions.signal);
  }

  return {
    call: call as ApiClient["call"],

    download(contract, ...[input, callOptions]) {
      if (contract.responseKind !== "file") {
        return Promise.reject(new Error(`${contract.name} does not answer with a file`));
      }
      return call(contract, input as LooseInput, callOptions) as Promise<FileResponse>;
    },

    async upload(contract, input, uploadOptions = {}) {
      const url = urlOf(contract, input as LooseInput);
      const blob =
        input.file instanceof Blob
          ? input.file
          : new Blob([new Uint8Array(input.file)], { type: "text/csv" });
      // Never retried (docs/api.md#retries-and-caching): a repeated upload would import twice without an
      // idempotency key.
      if (uploadOptions.onProgress) {
        const stream = multipartFileBody("csv", blob, input.fileName, uploadOptions.onProgress);
        return send(contract, url, {
          body: stream.body,
          duplex: "half",
          headers: {
            ...input.headers,
            "content-type": stream.contentType,
            "content-length": String(stream.length),
          },
          signal: uploadOptions.signal,
        } as RequestInit) as Promise<never>;
      }
      const form = new (options.FormData ?? FormData)();
      form.append("csv", blob, input.fileName);
      return send(contract, url, {
        body: form,
        headers: input.headers,
        signal: uploadOptions.signal,
      }) as Promise<never>;
    },

    clearCache: () => {
      cache.clear();
      options.onCacheCleared?.();
    },
    dispose: () => cache.dispose(),
  };
}
