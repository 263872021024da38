import { type Command, Option } from "commander";
import { listedIdArgument } from "../../filters/listed-id";
import type { Lazy } from "../../program";

const collect = (value: string, previous: string[]) => [...previous, value];

/** `varia tokens list|create|revoke`: the API tokens of the organisation. */
export function defineTokens(program: Command, lazy: Lazy) {
  const tokens = program.command("tokens").description("API tokens: list, create (shown once), revoke");
  tokens
    .command("list")
    .description("List the live API tokens (by their first characters only)")
    .action(lazy(() => import("./manage-tokens").then((m) => m.runTokensList)));
  tokens
    .command("create")
    .description("Create a named token; it is printed once, and stored hashed by the server")
    .argument("<name>", "a name to recognise the token by")
    .addOption(
      new Option("--ability <module/feature/ability>", "scope the token to this ability (repeatable)")
        .argParser(collect)
        .default([] as string[], "every ability you hold"),
    )
    .action(lazy(() => import("./manage-tokens").then((m) => m.runTokensCreate)));
  tokens
    .command("revoke")
    .description("Revoke a token by its id (or its first characters); it is refused from then on")
    .argument(
      "<tokenID>",
      "the id shown by `varia tokens list`, or its first characters (or the token's, varia_…)",
      listedIdArgument("a token's id", "varia tokens list"),
    )
    .action(lazy(() => import("./manage-tokens").then((m) => m.runTokensRevoke)));
}
