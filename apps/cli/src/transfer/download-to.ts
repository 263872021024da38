import { constants } from "node:fs";
import { access, writeFile } from "node:fs/promises";
import { basename, dirname } from "node:path";
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

/**
 * Downloads a file and writes it to `path`, showing the bytes as they arrive on a terminal (redrawn
 * at most ten times a second). A file that cannot be written is a usage error naming it, found
 * before the download when its folder is missing or read-only.
 */
export async function downloadTo(
  ctx: CommandContext,
  path: string,
  download: (onProgress: ProgressListener) => Promise<FileResponse>,
): Promise<FileResponse> {
  await access(dirname(path), constants.W_OK).catch((error: NodeJS.ErrnoException) => {
    throw cannotWrite(path, error);
  });
  const label = `Downloading ${basename(path)}`;
  const show = throttled((bytes: number, total: number | undefined) =>
    ctx.terminal.progress(`${label}: ${formatTransfer(bytes, total)}`),
  );
  const file = await download((bytes, total) => show.update(bytes, total));
  show.flush();
  ctx.terminal.endProgress();
  await writeFile(path, file.body).catch((error: NodeJS.ErrnoException) => {
    throw cannotWrite(path, error);
  });
  return file;
}
