import { ApiError } from "@varia/api-client";

/** An error the CLI reports on stderr and exits non-zero with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** The message to show for a failure: the server's own message when it sent one. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    const detail =
      error.serverMessage && error.serverMessage !== error.message ? `: ${error.serverMessage}` : "";
    if (error.status === 401) return `Unauthorized${detail}: check the host and the API token (varia login)`;
    return `${error.message}${detail}`;
  }
  return error instanceof Error ? error.message : String(error);
}
