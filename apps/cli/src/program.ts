import { Command, CommanderError, Option } from "commander";
import packageJson from "../package.json" with { type: "json" };
import { defineBackups } from "./commands/backups/command";
import { defineCompletion } from "./commands/completion/command";
import { defineConnections } from "./commands/connections/command";
import { defineExport } from "./commands/export/command";
import { defineImport } from "./commands/import/command";
import { defineJobs } from "./commands/jobs/command";
import { definePeriods } from "./commands/periods/command";
import { defineProfiles } from "./commands/profiles/command";
import { defineReport } from "./commands/report/command";
import { defineSmoke } from "./commands/smoke/command";
import { defineSources } from "./commands/sources/command";
import { defineTokens } from "./commands/tokens/command";
import { defineVariance } from "./commands/variance/command";
import { type CommandContext, defaultTimeoutMs, type GlobalOptions } from "./context";
import { exitCodeHelp, exitCodes } from "./errors/exit-codes";
import { parseSeconds } from "./filters/filter-options";
import { type Sink, Terminal } from "./output/terminal";

/** What a command does once parsed; loaded only when that command runs (see `lazy`). */
export type Runner<O> = (ctx: CommandContext, args: string[], options: O, command: Command) => Promise<void>;

/**
 * Wraps a command's runner for commander, loading its module only when the command runs: the
 * built CLI is split by command, so `varia --version` reads none of them and `varia variance`
 * reads only what it calls with.
 */
export type Lazy = <O>(load: () => Promise<Runner<O>>) => (...received: unknown[]) => Promise<void>;

export interface Io {
  stdout: Sink;
  stderr: Sink;
  env: NodeJS.ProcessEnv;
}

const environmentHelp = [
  "Environment:",
  "  VARIA_PROFILE             the profile to use when --profile is not given",
  "  VARIA_HOST, VARIA_TOKEN   a server and API token, when neither --profile nor VARIA_PROFILE names a profile",
  "  VARIA_TOKEN_<TENANT>      the token of a tenant for `varia smoke --tenant` (e.g. VARIA_TOKEN_ACME)",
  "  XDG_CONFIG_HOME           where config.json lives (default ~/.config; VARIA_CONFIG_DIR names the folder itself)",
  "  NO_COLOR                  no colours (colours are only ever used on a terminal)",
].join("\n");

/** The arguments before `--` ask for JSON: a usage error is then a JSON document too. */
function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).includes("--json");
}

/** A usage error as `--json` prints every error: `{"error": {message, exitCode}}` on stderr. */
function usageErrorJson(text: string): string {
  const message = text.replace(/^error: /, "").trim();
  return `${JSON.stringify({ error: { message, exitCode: exitCodes.usage } })}\n`;
}

/**
 * The `varia` command tree: every command, its options and its help. With `jsonErrors` (the
 * command line has --json), a usage error is printed as JSON, like every other error.
 */
export function buildProgram(io: Io, lazy: Lazy, { jsonErrors = false } = {}): Command {
  const program = new Command("varia")
    .description("Varia: subscription-revenue variance analytics from the command line, for ops and CI")
    .version(packageJson.version, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help for a command")
    .addOption(new Option("--profile <name>", "use this stored profile (see `varia profiles`)"))
    .option("--json", "print the result as JSON, in a stable shape")
    .option("-q, --quiet", "no notes or progress on stderr (errors still)")
    .addOption(
      new Option("--timeout <seconds>", "give up on a call after this long without an answer")
        .argParser(parseSeconds)
        .default(defaultTimeoutMs, "30"),
    )
    .option("--no-color", "no colours (also NO_COLOR)")
    .option("--debug", "print a stack trace with an error")
    .exitOverride()
    .showHelpAfterError(jsonErrors ? false : "(varia --help lists commands and options)")
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // Usage errors read like every other error of the CLI: `varia: ...`.
      outputError: (text, write) =>
        write(jsonErrors ? usageErrorJson(text) : text.replace(/^error: /, "varia: ")),
    })
    .addHelpText("after", `\n${exitCodeHelp}\n\n${environmentHelp}\n`);
  defineProfiles(program, lazy);
  definePeriods(program, lazy);
  defineVariance(program, lazy);
  defineReport(program, lazy);
  defineImport(program, lazy);
  defineSources(program, lazy);
  defineConnections(program, lazy);
  defineJobs(program, lazy);
  defineExport(program, lazy);
  defineBackups(program, lazy);
  defineTokens(program, lazy);
  defineSmoke(program, lazy);
  defineCompletion(program, lazy);
  if (!jsonErrors) pointToOwnHelp(program);
  return program;
}

/**
 * After a usage error, each command points to its own help (`varia tokens create --help`), which
 * lists the arguments and options it was given wrongly; `varia --help` lists only the commands.
 */
function pointToOwnHelp(command: Command, path = "varia"): void {
  for (const sub of command.commands) {
    const own = `${path} ${sub.name()}`;
    const lists = sub.commands.length
      ? "its commands"
      : sub.registeredArguments.length
        ? "its arguments and options"
        : "its options";
    sub.showHelpAfterError(`(${own} --help lists ${lists})`);
    pointToOwnHelp(sub, own);
  }
}

/** Runs `varia` with these arguments and answers its exit code (see `exitCodes`). */
export async function runCli(
  argv: string[],
  io: Io = { stdout: process.stdout, stderr: process.stderr, env: process.env },
): Promise<number> {
  const closers: (() => Promise<void> | void)[] = [];
  let ctx: (CommandContext & { exitCode: number }) | undefined;
  const lazy: Lazy =
    (load) =>
    async (...received) => {
      const command = received.at(-1) as Command;
      const options = command.optsWithGlobals() as GlobalOptions & Record<string, unknown>;
      const terminal = new Terminal(io.stdout, io.stderr, {
        quiet: options.quiet === true,
        colour: options.color,
        env: io.env,
      });
      const context = {
        options,
        terminal,
        env: io.env,
        exitCode: 0,
        onClose: (close: () => Promise<void> | void) => closers.push(close),
        exitWith(code: number) {
          context.exitCode = Math.max(context.exitCode, code);
        },
      };
      ctx = context;
      const run = await load();
      await run(context, command.processedArgs as string[], options as never, command);
    };
  try {
    await buildProgram(io, lazy, { jsonErrors: wantsJson(argv) }).parseAsync(argv, { from: "user" });
    return ctx?.exitCode ?? exitCodes.ok;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
    const { reportFailure } = await import("./errors/report-failure");
    return reportFailure(error, ctx, io);
  } finally {
    for (const close of closers.reverse()) await Promise.resolve(close()).catch(() => {});
  }
}
