/**
 * The exit codes of `varia`, as `varia --help` and the README list them. Scripts and CI read them,
 * so they never change meaning.
 */
export const exitCodes = {
  /** Everything asked for was done. */
  ok: 0,
  /**
   * A usage error: a bad flag or argument, no profile or token, a file that cannot be read, no months
   * to compare (an organisation without actual data, and no --from/--to).
   */
  usage: 1,
  /** The server refused: a 4xx answer, or an import rejected for its data (every bad cell listed). */
  refused: 2,
  /** The server failed or could not be reached: a 5xx answer, connection refused, a timeout. */
  serverFailed: 3,
  /** A job ended Failed or FailedPermanently for a reason other than its data. */
  jobFailed: 4,
} as const;

export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];

/** The lines of `varia --help` that explain the exit codes. */
export const exitCodeHelp = [
  "Exit codes:",
  "  0  ok",
  "  1  usage error: a bad flag or argument, no profile or token, a file that cannot be read, no months to compare",
  "  2  the server refused: a 4xx answer, or an import rejected for its data (every bad cell listed)",
  "  3  the server failed or could not be reached: a 5xx answer, connection refused, a timeout",
  "  4  a job ended Failed or FailedPermanently for a reason other than its data",
].join("\n");
