/** The codes of the server's one error type; the error handler maps each to an HTTP status. */
export const errorStatus = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  PayloadTooLarge: 413,
  UnsupportedMediaType: 415,
  TooManyRequests: 429,
  Internal: 500,
  /** An accounting provider did not answer, or failed (docs/integration.md, "Configuring a connection"). */
  BadGateway: 502,
} as const;
export type ErrorCode = keyof typeof errorStatus;

export interface FieldError {
  field: string;
  message: string;
}

/** An error the server means to answer with: a code, a message safe to show, and field details. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "AppError";
    this.status = errorStatus[code];
  }
}
