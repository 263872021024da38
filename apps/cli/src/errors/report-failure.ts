import type { CommandContext } from "../context";
import { defaultTimeoutMs } from "../context";
import type { Io } from "../program";
import { describeFailure } from "./describe-failure";

/** The stack of an error and of each of its causes (for `--debug`). */
function stackOf(error: unknown): string {
  const lines: string[] = [];
  for (
    let e = error as { stack?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    depth++
  ) {
    if (typeof e.stack === "string") lines.push(depth === 0 ? e.stack : `Caused by: ${e.stack}`);
    e = e.cause as typeof e;
  }
  return lines.join("\n");
}

/**
 * Prints a failed command's error on stderr, as `varia: <message>` with its detail lines, or with
 * `--json` as one JSON document `{"error": {...}}`; a stack trace only with `--debug`. Answers the
 * exit code.
 */
export function reportFailure(error: unknown, ctx: CommandContext | undefined, io: Io): number {
  const failure = describeFailure(error, ctx?.options.timeout ?? defaultTimeoutMs);
  const write = (text: string) => (ctx ? ctx.terminal.error(text) : io.stderr.write(`${text}\n`));
  if (ctx?.options.json) {
    write(
      JSON.stringify({
        error: {
          message: failure.message,
          exitCode: failure.exitCode,
          ...(failure.status !== undefined ? { status: failure.status } : {}),
          ...(failure.details.length ? { details: failure.details.map((d) => d.trim()) } : {}),
        },
      }),
    );
  } else {
    const prefix = ctx ? ctx.terminal.paintErr.red("varia:") : "varia:";
    write([`${prefix} ${failure.message}`, ...failure.details].join("\n"));
  }
  if (ctx?.options.debug) write(stackOf(error));
  return failure.exitCode;
}
