/**
 * The error of every failed call (docs/api.md#answers-and-errors): message, status, raw response, headers and
 * the parsed result. `status` is 0 when no answer came (the server could not be reached).
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly response: string,
    readonly headers: Record<string, string>,
    readonly result?: unknown,
    /** The address that was called. */
    readonly url?: string,
    /** What went wrong underneath, for a call without an answer (e.g. undici's timeout errors). */
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "ApiError";
  }

  /** The call's method (GET, POST...), when no answer came. */
  method?: string;
  /** How many times the call was sent: more than 1 when it was retried (docs/api.md#retries-and-caching). */
  attempts = 1;

  /** The server's own message, when its answer carried one (`{ "message": ... }`). */
  get serverMessage(): string | undefined {
    const result = this.result as { message?: unknown } | undefined;
    return typeof result?.message === "string" ? result.message : undefined;
  }
}

/** What a failed call says to a person: the server's own message when it gave one, else the error's. */
export function errorText(error: unknown): string {
  return (error as { serverMessage?: string }).serverMessage ?? (error as Error).message;
}

/** The client's messages for failed calls (docs/api.md#answers-and-errors). */
export const errorMessages = {
  badRequest: "Bad Request",
  unauthorized: "Unauthorized",
  unexpected: "An unexpected server error occurred.",
  unreachable: "The server could not be reached.",
} as const;

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Maps a failed answer to its error (docs/api.md#answers-and-errors): 400 with the parsed body, 401, anything
 * else.
 */
export function errorForStatus(
  status: number,
  text: string,
  headers: Record<string, string>,
  url?: string,
): ApiError {
  const message =
    status === 400
      ? errorMessages.badRequest
      : status === 401
        ? errorMessages.unauthorized
        : errorMessages.unexpected;
  return new ApiError(message, status, text, headers, parseJson(text), url);
}

/** The error of a call that got no answer; `response` holds the cause (e.g. `connect ECONNREFUSED ...`). */
export function unreachableError(error: unknown, url: string, method?: string): ApiError {
  const { message, cause } = (error ?? {}) as { message?: string; cause?: { message?: string } };
  const detail = [message, cause?.message].filter(Boolean).join(": ") || String(error);
  const unreachable = new ApiError(errorMessages.unreachable, 0, detail, {}, undefined, url, error);
  if (method) unreachable.method = method;
  return unreachable;
}
