import { writeFile } from "node:fs/promises";
import { importTemplate } from "@varia/contracts";
import type { CommandContext } from "../../context";
import { configuredClient } from "../../http/client";
import { cannotWrite, reportWritten, stdoutPath, where, writeStdout } from "../../transfer/download-to";

/** `varia import template`: the header and two example rows. */
export async function runTemplate(ctx: CommandContext, _args: string[], options: { output?: string }) {
  const { client } = configuredClient(ctx);
  const file = await client.download(importTemplate);
  const text = new TextDecoder().decode(file.body);
  if (options.output) {
    const path = options.output;
    if (path === stdoutPath) await writeStdout(ctx, file.body);
    else
      await writeFile(path, file.body).catch((error: NodeJS.ErrnoException) => {
        throw cannotWrite(path, error);
      });
    reportWritten(ctx, path, { file: path, bytes: file.body.length }, `Saved the template to ${where(path)}`);
  } else if (ctx.options.json) ctx.terminal.json({ fileName: file.fileName ?? null, content: text });
  else ctx.terminal.out(text.trimEnd());
}
