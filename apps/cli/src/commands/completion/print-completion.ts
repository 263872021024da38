import { reportIDs } from "@varia/contracts";
import type { Command } from "commander";
import type { CommandContext } from "../../context";
import { completionModel } from "./completion-model";
import { bashScript, fishScript, zshScript } from "./shell-scripts";

const scripts = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;

/** `varia completion <shell>`: the script on stdout (with --json, `{ shell, script }`). */
export async function runCompletion(
  ctx: CommandContext,
  [shell]: string[],
  _options: unknown,
  command: Command,
) {
  let root = command;
  while (root.parent) root = root.parent;
  const model = completionModel(root, { report: reportIDs });
  const script = scripts[shell as keyof typeof scripts](model);
  if (ctx.options.json) ctx.terminal.json({ shell, script });
  else ctx.terminal.stdout.write(script);
}
