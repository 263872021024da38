import { Command, CommanderError } from "commander";
import { CliError, describeError } from "./cli-error";
import { registerExport } from "./commands/export";
import { registerImport } from "./commands/import";
import { registerLogin } from "./commands/login";
import { registerReport } from "./commands/report";
import { registerTokens } from "./commands/tokens";
import { registerVariance } from "./commands/variance";
import { registerWhoami } from "./commands/whoami";
import { type Output, processOutput } from "./output";

export function buildProgram(output: Output = processOutput): Command {
  const program = new Command("varia")
    .description("Varia: subscription-revenue variance analytics from the command line")
    .version("0.1.0")
    .exitOverride()
    .configureOutput({ writeOut: (s) => output.out(s), writeErr: (s) => output.err(s) });
  registerLogin(program, output);
  registerWhoami(program, output);
  registerTokens(program, output);
  registerImport(program, output);
  registerExport(program, output);
  registerVariance(program, output);
  registerReport(program, output);
  return program;
}

/** Runs the CLI and answers its exit code; errors go to stderr with the server's message. */
export async function runCli(argv: string[], output: Output = processOutput): Promise<number> {
  try {
    await buildProgram(output).parseAsync(argv, { from: "user" });
    // A command that ran but reports a failure (a failed import) sets the exit code itself.
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    output.err(`varia: ${describeError(error)}`);
    return error instanceof CliError ? error.exitCode : 1;
  }
}
