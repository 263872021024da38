import type { z } from "zod";
import { type ConnectorAccess, ConnectorError, type RevocationAccess } from "./connector";

/**
 * How a connector waits and how long it lets a provider take (docs/integration.md,
 * "Rate limits, timeouts and errors"). Tests pass a `sleep` that records the wait and returns at once.
 */
export interface ProviderTiming {
  /** Waits this many milliseconds (a 429's Retry-After). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Now, in epoch milliseconds: reads a Retry-After given as an HTTP date. */
  readonly now?: () => number;
  /** How long one request may take before it is abandoned. */
  readonly timeoutMs?: number;
}

export const providerLimits = {
  timeoutMs: 30_000,
  /** Times a request is sent again after a 429 before the connector gives up. */
  rateLimitRetries: 3,
  /** The longest Retry-After the connector waits; a longer one ends the read (retryable). */
  maxRetryAfterMs: 60_000,
  /** The wait after a 429 that names none. */
  defaultRetryAfterMs: 5_000,
} as const;

export interface ProviderRequest<T> {
  /** The provider's name, as messages show it: "QuickBooks", "Xero". */
  readonly provider: string;
  /** Path and query below `access.apiUrl`. */
  readonly path: string;
  /** Headers besides Authorization and Accept (Xero's `xero-tenant-id`). */
  readonly headers?: Record<string, string>;
  /** What the answer is, for messages: "the Invoice query". */
  readonly what: string;
  /** The answer's expected shape; a body that does not fit is a ConnectorError naming the field. */
  readonly schema: z.ZodType<T>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Reads Retry-After: seconds, or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** "Invoice[3].TxnDate" from a zod issue's path. */
function fieldName(path: readonly PropertyKey[]): string {
  return path
    .map((key, i) => (typeof key === "number" ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`))
    .join("");
}

/**
 * GETs one JSON answer of a provider's API with the access token as bearer. A 429 waits its
 * Retry-After and asks again (at most `rateLimitRetries` times); every failure is a ConnectorError
 * that says what happened without the token or the answer's body.
 */
export async function getProviderJson<T>(
  access: ConnectorAccess,
  request: ProviderRequest<T>,
  timing: ProviderTiming = {},
): Promise<T> {
  const { provider, what } = request;
  const sleep = timing.sleep ?? realSleep;
  const now = timing.now ?? Date.now;
  const timeoutMs = timing.timeoutMs ?? providerLimits.timeoutMs;
  const doFetch = access.fetch ?? fetch;
  const url = `${access.apiUrl.replace(/\/+$/, "")}${request.path}`;
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    let text: string;
    try {
      response = await doFetch(url, {
        headers: {
          ...request.headers,
          Authorization: `Bearer ${access.accessToken}`,
          Accept: "application/json",
        },
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      const timedOut = error instanceof Error && error.name === "TimeoutError";
      throw new ConnectorError(
        timedOut
          ? `${provider} did not answer ${what} within ${timeoutMs / 1000} s`
          : `${provider} could not be reached for ${what}`,
        undefined,
        true,
      );
    }
    const status = response.status;
    if (status === 429) {
      const waitMs =
        retryAfterMs(response.headers.get("retry-after"), now()) ?? providerLimits.defaultRetryAfterMs;
      if (attempt >= providerLimits.rateLimitRetries) {
        throw new ConnectorError(
          `${provider} kept refusing ${what} for its rate limit (429) after ${attempt} retries`,
          429,
          true,
        );
      }
      if (waitMs > providerLimits.maxRetryAfterMs) {
        throw new ConnectorError(
          `${provider} asks to wait ${Math.ceil(waitMs / 1000)} s for its rate limit (429) before ${what}`,
          429,
          true,
        );
      }
      await sleep(waitMs);
      continue;
    }
    if (status === 401 || status === 403) {
      throw new ConnectorError(`${provider} refused the access token (${status})`, status, false);
    }
    if (status >= 500) {
      throw new ConnectorError(`${provider} failed to answer ${what} (${status})`, status, true);
    }
    if (status !== 200) {
      throw new ConnectorError(`${provider} answered ${what} with ${status}`, status, false);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new ConnectorError(`${provider} answered ${what} with a body that is not JSON`, status, false);
    }
    const parsed = request.schema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue ? fieldName(issue.path) : "";
      throw new ConnectorError(
        field
          ? `${provider} answered ${what} without a valid ${field} (${issue?.message})`
          : `${provider} answered ${what} with a body of another shape (${issue?.message})`,
        status,
        false,
      );
    }
    return parsed.data;
  }
}

/**
 * A client id or secret as HTTP Basic carries it (RFC 6749, 2.3.1: form-urlencoded first), the way
 * openid-client sends them to the token endpoint for a refresh.
 */
function formUrlEncode(text: string): string {
  return encodeURIComponent(text).replace(/[-_.!~*'()]|%20/g, (c) =>
    c === "%20" ? "+" : `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * POSTs a refresh token to the provider's revocation endpoint with Varia's client credentials as
 * HTTP Basic: a form `token=…` (Xero, RFC 7009) or JSON `{ "token": … }` (Intuit). A 2xx is taken
 * as revoked. Asked once (a disconnection does not wait out a provider); every failure is a
 * ConnectorError that names the provider and its status, never a token, a secret or the body.
 */
export async function revokeAtProvider(
  access: RevocationAccess,
  request: { readonly provider: string; readonly body: "form" | "json" },
  timing: Pick<ProviderTiming, "timeoutMs"> = {},
): Promise<void> {
  const { provider } = request;
  const timeoutMs = timing.timeoutMs ?? providerLimits.timeoutMs;
  const doFetch = access.fetch ?? fetch;
  const credentials = Buffer.from(
    `${formUrlEncode(access.clientId)}:${formUrlEncode(access.clientSecret)}`,
  ).toString("base64");
  let response: Response;
  try {
    response = await doFetch(access.revocationUrl, {
      method: "POST",
      headers: {
        Authorization: `Basic ${credentials}`,
        Accept: "application/json",
        "Content-Type": request.body === "json" ? "application/json" : "application/x-www-form-urlencoded",
      },
      body:
        request.body === "json"
          ? JSON.stringify({ token: access.refreshToken })
          : new URLSearchParams({ token: access.refreshToken }).toString(),
      signal: AbortSignal.timeout(timeoutMs),
    });
    // Read to the end, so the connection is free again; the body is not used.
    await response.arrayBuffer();
  } catch (error) {
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    throw new ConnectorError(
      timedOut
        ? `${provider} did not answer the revocation within ${timeoutMs / 1000} s`
        : `${provider} could not be reached for the revocation`,
      undefined,
      true,
    );
  }
  const status = response.status;
  if (status >= 500)
    throw new ConnectorError(`${provider} failed to answer the revocation (${status})`, status, true);
  if (status < 200 || status > 299)
    throw new ConnectorError(`${provider} refused the revocation (${status})`, status, status === 429);
}
