import {
  abilities,
  abilityKey,
  createApiToken,
  listApiTokens,
  type RoleAbility,
  revokeApiToken,
} from "@varia/contracts";
import type { Command } from "commander";
import { CliError } from "../cli-error";
import { configuredClient } from "../client";
import { type Output, printJson } from "../output";

const catalogue: RoleAbility[] = Object.values(abilities).map((a) => ({ ...a }));

/** `Variance/Dashboard/View` → the ability; unknown names list what exists. */
function parseAbility(text: string): RoleAbility {
  const found = catalogue.find((a) => abilityKey(a).toLowerCase() === text.toLowerCase());
  if (!found)
    throw new CliError(`Unknown ability '${text}'. Abilities: ${catalogue.map(abilityKey).join(", ")}`);
  return found;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** `varia tokens list|create|revoke`: the API tokens of spec 7.5, over the configured token. */
export function registerTokens(program: Command, output: Output) {
  const tokens = program.command("tokens").description("API tokens: list, create (shown once), revoke");

  tokens
    .command("list")
    .description("List the live API tokens")
    .option("--json", "print JSON")
    .action(async (options: { json?: boolean }) => {
      const list = await configuredClient().call(listApiTokens);
      if (options.json) return printJson(output, list);
      if (list.length === 0) return output.out("No API tokens");
      for (const token of list)
        output.out(
          [
            token.tokenID,
            token.name,
            `${token.tokenPrefix}…`,
            token.userName,
            `last used ${token.lastUsedAt ?? "never"}`,
            token.abilities.map(abilityKey).join(","),
          ].join("\t"),
        );
    });

  tokens
    .command("create")
    .description("Create a named token; it is printed once and stored hashed")
    .argument("<name>", "a name to recognise the token by")
    .option(
      "--ability <module/feature/ability>",
      "scope the token to this ability (repeatable; default: every ability you hold)",
      collect,
      [] as string[],
    )
    .option("--json", "print JSON")
    .action(async (name: string, options: { ability: string[]; json?: boolean }) => {
      const scope = options.ability.map(parseAbility);
      const created = await configuredClient().call(createApiToken, {
        body: { name, ...(scope.length ? { abilities: scope } : {}) },
      });
      if (options.json) return printJson(output, created);
      output.out(created.token);
      output.err(`Created token '${created.name}' (${created.tokenID}). It is shown only this once.`);
    });

  tokens
    .command("revoke")
    .description("Revoke a token by its id")
    .argument("<tokenID>", "the id shown by `varia tokens list`")
    .option("--json", "print JSON")
    .action(async (tokenID: string, options: { json?: boolean }) => {
      await configuredClient().call(revokeApiToken, { query: { tokenID } });
      if (options.json) printJson(output, { revoked: tokenID });
      else output.out(`Revoked ${tokenID}`);
    });
}
