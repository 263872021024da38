import { type ExitCode, exitCodes } from "./exit-codes";

/**
 * A failure the CLI explains itself: printed on stderr as `varia: <message>` (then each of
 * `details`), and the process exits with `exitCode` (a usage error unless said otherwise).
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = exitCodes.usage,
    readonly details: readonly string[] = [],
  ) {
    super(message);
    this.name = "CliError";
  }
}
