import type { Command, Option } from "commander";

/** What a word after a flag or a command may be completed with. */
export type ValueHint =
  | { kind: "words"; words: readonly string[] }
  | { kind: "files" }
  | { kind: "profiles" }
  | { kind: "none" };

export interface CompletionOption {
  flags: string[];
  long: string | undefined;
  short: string | undefined;
  description: string;
  takesValue: boolean;
  value: ValueHint;
}

export interface CompletionCommand {
  /** The words that lead to it: `["report", "run"]`; `[]` for `varia` itself. */
  path: string[];
  name: string;
  description: string;
  options: CompletionOption[];
  commands: CompletionCommand[];
  /** What its first argument is completed with. */
  argument: ValueHint;
}

/** Flags and arguments whose values are files, and the profile flag, whose values are the stored profiles. */
const fileOptions = new Set(["--output", "--junit"]);
const fileArguments = new Set(["file"]);

function optionModel(option: Option): CompletionOption {
  const takesValue = option.required || option.optional;
  const choices = option.argChoices;
  const value: ValueHint = !takesValue
    ? { kind: "none" }
    : option.long === "--profile"
      ? { kind: "profiles" }
      : option.long && fileOptions.has(option.long)
        ? { kind: "files" }
        : choices
          ? { kind: "words", words: choices }
          : { kind: "none" };
  return {
    flags: [option.short, option.long].filter((f): f is string => Boolean(f)),
    long: option.long,
    short: option.short,
    description: option.description,
    takesValue,
    value,
  };
}

/**
 * The command tree as completion sees it, read from commander's own definitions, so a new command
 * or option is completed without touching the scripts. `argumentWords` gives the words of arguments
 * known in advance (report ids).
 */
export function completionModel(
  command: Command,
  argumentWords: Record<string, readonly string[]> = {},
  path: string[] = [],
): CompletionCommand {
  const first = command.registeredArguments[0];
  const argument: ValueHint = !first
    ? { kind: "none" }
    : first.argChoices
      ? { kind: "words", words: first.argChoices }
      : fileArguments.has(first.name())
        ? { kind: "files" }
        : argumentWords[first.name()]
          ? { kind: "words", words: argumentWords[first.name()]! }
          : { kind: "none" };
  const help = command.createHelp();
  return {
    path,
    name: command.name(),
    description: command.description(),
    options: help.visibleOptions(command).map(optionModel),
    commands: command.commands.map((c) => completionModel(c, argumentWords, [...path, c.name()])),
    argument,
  };
}

/** Every command of the tree, itself first. */
export function allCommands(root: CompletionCommand): CompletionCommand[] {
  return [root, ...root.commands.flatMap(allCommands)];
}
