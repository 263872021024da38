/** The error of every failed call (spec 3.9): message, status, raw response, headers, parsed result. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly response: string,
    readonly headers: Record<string, string>,
    readonly result?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** The server's own message, when its answer carried one. */
  get serverMessage(): string | undefined {
    const result = this.result as { message?: unknown } | undefined;
    return typeof result?.message === "string" ? result.message : undefined;
  }
}

export const errorMessages = {
  badRequest: "Bad Request",
  unauthorized: "Unauthorized",
  unexpected: "An unexpected server error occurred.",
  unreachable: "The server could not be reached.",
} as const;

/** Maps a failed answer to its error (spec 8: 400, 401, anything else). */
export function errorForStatus(status: number, text: string, headers: Record<string, string>): ApiError {
  let result: unknown;
  try {
    result = text ? JSON.parse(text) : undefined;
  } catch {
    result = undefined;
  }
  const message =
    status === 400
      ? errorMessages.badRequest
      : status === 401
        ? errorMessages.unauthorized
        : errorMessages.unexpected;
  return new ApiError(message, status, text, headers, result);
}
