import { InvalidArgumentError } from "commander";
import { CliError } from "../errors/cli-error";
import { exitCodes } from "../errors/exit-codes";

/** The fewest characters of an id that name an item, as git takes a commit's (apps/cli/README.md). */
export const listedIdMinLength = 4;

/**
 * An argument naming an item a list command prints (a token, a backup): its id, or the id's first
 * characters, at least `listedIdMinLength`; a trailing "…" (as the README's examples and the lists
 * cut a value) is left out. Checked before any call; `pickListed` finds the item.
 */
export function listedIdArgument(what: string, listedBy: string) {
  return (value: string): string => {
    const text = value.trim().replace(/(…|\.\.\.)$/, "");
    if (text.length < listedIdMinLength)
      throw new InvalidArgumentError(
        `expected ${what} as \`${listedBy}\` prints it, or its first ${listedIdMinLength} characters or more.`,
      );
    return text;
  };
}

/**
 * The one item of `items` that `given` names: the item whose key (`keys`: its id, and for a token the
 * first characters of its secret that the list shows) is `given`, else the one whose key starts with
 * it, without regard to case. None is a refusal (exit 2, as the server's "no such" 404 would be);
 * more than one is a usage error naming each (`describe`), since guessing would act on the wrong one.
 */
export function pickListed<T>(
  items: readonly T[],
  given: string,
  options: {
    keys: (item: T) => string[];
    describe: (item: T) => string;
    what: string;
    whats: string;
    listedBy: string;
  },
): T {
  const text = given.toLowerCase();
  const keysOf = (item: T) => options.keys(item).map((k) => k.toLowerCase());
  const exact = items.filter((item) => keysOf(item).includes(text));
  const matches = exact.length ? exact : items.filter((item) => keysOf(item).some((k) => k.startsWith(text)));
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0)
    throw new CliError(`No ${options.what} '${given}' (${options.listedBy} shows them)`, exitCodes.refused);
  throw new CliError(
    `'${given}' names ${matches.length} ${options.whats}; give more characters of the one you mean:`,
    exitCodes.usage,
    matches.map((item) => `  ${options.describe(item)}`),
  );
}
