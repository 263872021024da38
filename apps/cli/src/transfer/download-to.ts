import { constants } from "node:fs";
import { access, writeFile } from "node:fs/promises";
import { basename, dirname, extname } from "node:path";
import type { FileResponse, ProgressListener } from "@varia/api-client";
import type { CommandContext } from "../context";
import { CliError } from "../errors/cli-error";
import { formatTransfer } from "../output/format";
import { throttled } from "./throttled";

/** A file that cannot be written, as a usage error naming it and why in words. */
export function cannotWrite(path: string, error: NodeJS.ErrnoException): CliError {
  const why =
    error.code === "ENOENT"
      ? "no such folder"
      : error.code === "EACCES"
        ? "permission denied"
        : error.code === "EISDIR"
          ? "it is a folder"
          : error.message;
  return new CliError(`Cannot write ${path}: ${why}`);
}

/** The `-o` that means stdout, as Unix tools take it. */
export const stdoutPath = "-";

/**
 * Refuses, before anything is asked of the server, to write a binary file (`binary` names it, e.g.
 * "an XLSX file") to stdout when stdout is a terminal: it would fill the screen with bytes.
 */
export function checkOutput(ctx: CommandContext, path: string, binary: string | null): void {
  if (path === stdoutPath && binary && ctx.terminal.stdout.isTTY === true)
    throw new CliError(
      `Not writing ${binary} to the terminal (-o -): redirect stdout to a file or a program (-o - > file, -o - | …), or give -o FILE`,
    );
}

/** The kinds of file an output's extension names, as a sentence names them. */
const namedKinds: Record<string, string> = {
  ".csv": "a CSV file",
  ".xlsx": "an XLSX workbook",
  ".xls": "an Excel 97-2003 workbook",
  ".ods": "an OpenDocument spreadsheet",
  ".json": "a JSON file",
  ".tsv": "a tab-separated file",
};

/**
 * Refuses, before any call, an output whose name says it is another kind of file than the one
 * written (`written`: ".csv" or ".xlsx"): `-o lines.xlsx` would otherwise hold CSV text, which a
 * spreadsheet refuses to open, and `-o report.json` CSV that a script's JSON reader chokes on. A
 * name without one of those extensions is taken as given. `advice` says what to do instead.
 */
export function checkOutputName(path: string, written: ".csv" | ".xlsx", advice: string): void {
  if (path === stdoutPath) return;
  const extension = extname(path).toLowerCase();
  const named = namedKinds[extension];
  if (named && extension !== written)
    throw new CliError(`${path} names ${named}, but this writes ${namedKinds[written]}: ${advice}`);
}

/** Writes bytes to stdout, resolved once they are handed on; a reader that went away (EPIPE) ends it quietly. */
export function writeStdout(ctx: CommandContext, body: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    ctx.terminal.stdout.write(body, (error?: Error | null) => {
      if (!error || (error as NodeJS.ErrnoException).code === "EPIPE") resolve();
      else reject(new CliError(`Cannot write to stdout: ${error.message}`));
    });
  });
}

/**
 * The result of a command that wrote a file: on stdout, unless the file went there (`-o -`), when
 * it goes to stderr instead (the text as a note, not with `--quiet`; the JSON always), so stdout
 * holds the file alone.
 */
export function reportWritten(ctx: CommandContext, path: string, json: unknown, text: string): void {
  if (path !== stdoutPath) {
    if (ctx.options.json) ctx.terminal.json(json);
    else ctx.terminal.out(text);
  } else if (ctx.options.json) ctx.terminal.error(JSON.stringify(json, null, 2));
  else ctx.terminal.note(text);
}

/**
 * Downloads a file and writes it to `path`, or to stdout for `-o -` (`binary` names a file that is
 * not text, refused on a terminal: `checkOutput`), showing the bytes as they arrive on a terminal
 * (on stderr, redrawn at most ten times a second). A file that cannot be written is a usage error
 * naming it, found before the download when its folder is missing or read-only.
 */
export async function downloadTo(
  ctx: CommandContext,
  path: string,
  download: (onProgress: ProgressListener) => Promise<FileResponse>,
  binary: string | null = null,
): Promise<FileResponse> {
  const toStdout = path === stdoutPath;
  checkOutput(ctx, path, binary);
  if (!toStdout)
    await access(dirname(path), constants.W_OK).catch((error: NodeJS.ErrnoException) => {
      throw cannotWrite(path, error);
    });
  const label = toStdout ? "Downloading to stdout" : `Downloading ${basename(path)}`;
  const show = throttled((bytes: number, total: number | undefined) =>
    ctx.terminal.progress(`${label}: ${formatTransfer(bytes, total)}`),
  );
  const file = await download((bytes, total) => show.update(bytes, total));
  show.flush();
  ctx.terminal.endProgress();
  if (toStdout) await writeStdout(ctx, file.body);
  else
    await writeFile(path, file.body).catch((error: NodeJS.ErrnoException) => {
      throw cannotWrite(path, error);
    });
  return file;
}

/** Where a file went, as a sentence says it: its path, or stdout. */
export function where(path: string): string {
  return path === stdoutPath ? "stdout" : path;
}
