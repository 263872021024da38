import { ApiError } from "@varia/api-client";
import { CliError } from "./cli-error";
import { type ExitCode, exitCodes } from "./exit-codes";

/** A failure as the CLI reports it: one message, lines under it, the exit code, the HTTP status. */
export interface Failure {
  message: string;
  details: string[];
  exitCode: ExitCode;
  status?: number;
}

/** What a call waited for when `--timeout` ended it, by undici's code (`what` is the call). */
const timeoutCodes: Record<string, (origin: string, what: string, seconds: string) => string> = {
  UND_ERR_CONNECT_TIMEOUT: (origin, _what, s) =>
    `${origin} did not accept a connection within ${s} s (--timeout)`,
  UND_ERR_HEADERS_TIMEOUT: (origin, what, s) => `${origin} did not answer ${what} within ${s} s (--timeout)`,
  UND_ERR_BODY_TIMEOUT: (origin, what, s) =>
    `${origin} stopped sending its answer to ${what}: nothing came for ${s} s (--timeout)`,
};

/** The codes of an error and its causes (`fetch failed` → undici's error → the socket's). */
function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === "string") codes.push(e.code);
    e = e.cause as typeof e;
  }
  return codes;
}

function originOf(url: string | undefined): string {
  if (!url) return "the server";
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** Where a call went, without its query: `GET /api/token`. */
function callOf(error: ApiError): string {
  try {
    return new URL(error.url ?? "").pathname;
  } catch {
    return "";
  }
}

/**
 * A call that got no answer: connection refused, unknown host, or `--timeout` ran out. It names the
 * call (`GET /api/...`) and, when it was sent more than once, that the retries ran out; a call that
 * is never retried (anything but a GET) says it was sent once.
 */
function unreachable(error: ApiError, timeoutMs: number): Failure {
  const origin = originOf(error.url);
  const codes = codesOf(error.cause);
  const timeout = codes.find((c) => timeoutCodes[c]);
  const what = [error.method, callOf(error)].filter(Boolean).join(" ") || "the call";
  let message: string;
  if (timeout) message = timeoutCodes[timeout]!(origin, what, String(timeoutMs / 1000));
  else if (codes.includes("ECONNREFUSED")) message = `Could not reach ${origin}: connection refused`;
  else if (codes.includes("ENOTFOUND")) message = `Could not reach ${origin}: no such host`;
  else message = `Could not reach ${origin}: ${error.response || error.message}`;
  if (error.attempts > 1) message += `; tried ${error.attempts} times, no more retries`;
  else if (error.method && error.method !== "GET")
    message += `; ${what} is sent once, not retried: check whether it was done before running the command again`;
  return { message, details: [], exitCode: exitCodes.serverFailed, status: 0 };
}

/**
 * The host (as given, with the path Varia is served under) and the call (`/api/...`) of a call's
 * address, without its query.
 */
function hostAndCall(url: string): { host: string; call: string } {
  try {
    const { origin, pathname } = new URL(url);
    const api = pathname.lastIndexOf("/api/");
    return api === -1
      ? { host: origin, call: pathname }
      : { host: origin + pathname.slice(0, api), call: pathname.slice(api) };
  } catch {
    return { host: "the server", call: url };
  }
}

/**
 * An answer that is not Varia's: a web page where the API answers JSON or a file (a host whose path
 * is wrong gets the web app's page, a proxy its sign-in page), or a 404 without Varia's message.
 * Said as such, naming the host to check, rather than as a broken contract or an unknown error.
 */
export function notVariaApi(host: string, call: string, answer: string): string {
  return `${host} answered ${call} with ${answer}, not Varia's API: check the host, and the path Varia is served under if it has one`;
}

/** Whether an answer is an HTML page, by its content type. */
export function isWebPage(contentType: string | undefined): boolean {
  return /^\s*text\/html\b/i.test(contentType ?? "");
}

/** The field errors of a 400 answer (`{ errors: [{ field, message }] }`), one a line. */
function fieldErrors(error: ApiError): string[] {
  const errors = (error.result as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors
    .filter((e): e is { field: string; message: string } => typeof e?.message === "string")
    .map((e) => `  ${e.field ? `${e.field}: ` : ""}${e.message}`);
}

/**
 * Explains any failure of a command and chooses its exit code: the server's own message for a
 * refusal (4xx: 2), the address and the reason for a failure or no answer (5xx, unreachable,
 * timeout: 3), the CLI's own errors with theirs, anything else as a usage error (1).
 */
export function describeFailure(error: unknown, timeoutMs: number): Failure {
  if (error instanceof CliError)
    return { message: error.message, details: [...error.details], exitCode: error.exitCode };
  if (!(error instanceof ApiError)) {
    return {
      message: error instanceof Error ? error.message : String(error),
      details: [],
      exitCode: exitCodes.usage,
    };
  }
  const server = error.serverMessage;
  const where = callOf(error);
  if (error.status === 0) return unreachable(error, timeoutMs);
  const contentType = error.headers["content-type"];
  if (error.status >= 200 && error.status < 300) {
    // An answer that does not match its contract: the server is not the one this CLI knows.
    const { host, call } = hostAndCall(error.url ?? "");
    const message = isWebPage(contentType)
      ? notVariaApi(host, call, `a web page (${contentType})`)
      : error.message;
    return { message, details: [], exitCode: exitCodes.serverFailed, status: error.status };
  }
  if (error.status >= 500) {
    return {
      message: `The server failed (HTTP ${error.status} from ${where}): ${server ?? error.message}`,
      details: [],
      exitCode: exitCodes.serverFailed,
      status: error.status,
    };
  }
  if (error.status === 404 && server === undefined) {
    const { host, call } = hostAndCall(error.url ?? "");
    return {
      message: notVariaApi(host, call, "HTTP 404 Not Found"),
      details: [],
      exitCode: exitCodes.refused,
      status: error.status,
    };
  }
  const detail = server && server !== error.message ? `: ${server}` : "";
  const message =
    error.status === 401
      ? `Unauthorized${detail}: ${hostAndCall(error.url ?? "").host} does not accept this API token (mistyped, revoked, or of another organisation: a token works on its own organisation's host only); check the host and the token (varia profiles), or varia login again`
      : error.status === 400
        ? `Bad Request${detail}`
        : `${server ?? error.message} (HTTP ${error.status} from ${where})`;
  return { message, details: fieldErrors(error), exitCode: exitCodes.refused, status: error.status };
}
