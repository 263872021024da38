import { InvalidArgumentError, Option } from "commander";
import { CliError } from "../errors/cli-error";

/**
 * Options shared by the analytics commands, parsed as commander reads them: a bad value is a usage
 * error (exit 1) naming the flag and what it expects, before anything is called. They live apart from
 * the commands' runners and import nothing heavy, so `varia --help` stays quick.
 */

const monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** A month as YYYY-MM, from `2025-06`, `06/2025`, `Jun-2025` or `Jun 2025` (the period forms of the app). */
export function parseMonth(text: string): string {
  const value = text.trim();
  const iso = /^(\d{4})-(\d{1,2})$/.exec(value);
  const slash = /^(\d{1,2})\/(\d{4})$/.exec(value);
  const named = /^([A-Za-z]{3})[- ](\d{4})$/.exec(value);
  const [year, month] = iso
    ? [Number(iso[1]), Number(iso[2])]
    : slash
      ? [Number(slash[2]), Number(slash[1])]
      : named
        ? [Number(named[2]), monthNames.indexOf(named[1]!.toLowerCase()) + 1]
        : [undefined, undefined];
  if (year === undefined || month === undefined || month < 1 || month > 12)
    throw new InvalidArgumentError("expected a month such as 2025-06 (or 06/2025, Jun-2025).");
  return `${year}-${String(month).padStart(2, "0")}`;
}

/** A choice matched without regard to case, printed as the canonical spelling; completion offers them. */
export function choiceOption(flags: string, description: string, choices: readonly string[]): Option {
  return new Option(flags, description).choices(choices).argParser((value: string) => {
    const found = choices.find((c) => c.toLowerCase() === value.trim().toLowerCase());
    if (!found) throw new InvalidArgumentError(`expected ${choices.join(", ")}.`);
    return found;
  });
}

export const dataTypeOption = () =>
  choiceOption("--data-type <type>", "the measure (default Revenue)", ["Revenue", "Margin"]);
export const stockTypeOption = () =>
  choiceOption("--stock-type <type>", "only items of this stock type", ["Subscription", "Product", "Hourly"]);
export const fromOption = (description = "the first month (default: the month before --to)") =>
  new Option("--from <month>", description).argParser(parseMonth);
export const toOption = (description = "the second month (default: the latest month with data)") =>
  new Option("--to <month>", description).argParser(parseMonth);
export const clientOption = () =>
  new Option("--client <code or name>", "only this client, by its code or name");
export const itemOption = () =>
  new Option("--item <code or name>", "only this service (item), by its code or name");
export const salespersonOption = (description = "only this salesperson's clients") =>
  new Option("--salesperson <name>", description);

/** A number of seconds above 0, in ms (`--timeout`, `--poll-interval`). */
export function parseSeconds(value: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new InvalidArgumentError("expected a number of seconds above 0.");
  return Math.round(seconds * 1000);
}

/** A whole number of at least `min`. */
export function integerAtLeast(min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min)
      throw new InvalidArgumentError(`expected a whole number of at least ${min}.`);
    return n;
  };
}

/**
 * Refuses a --from after --to (a usage error): the months are compared from the first to the
 * second, so swapped flags would print every change with the wrong sign.
 */
export function checkMonthOrder(from: string | undefined, to: string | undefined, toDefaulted = false): void {
  if (!from || !to || from <= to) return;
  throw new CliError(
    toDefaulted
      ? `--from ${from} is after ${to}, the latest month with actual data (the default of --to)`
      : `--from ${from} is after --to ${to}`,
  );
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An argument that is an id (a UUID) as a list command prints it, checked before any call. */
export function idArgument(what: string, listedBy: string) {
  return (value: string): string => {
    const id = value.trim();
    if (!uuidPattern.test(id))
      throw new InvalidArgumentError(`expected ${what} as \`${listedBy}\` prints it.`);
    return id;
  };
}
