import {
  type ApiToken,
  abilities,
  abilityKey,
  createApiToken,
  listApiTokens,
  type RoleAbility,
  revokeApiToken,
} from "@varia/contracts";
import type { CommandContext } from "../../context";
import { CliError } from "../../errors/cli-error";
import { pickListed } from "../../filters/listed-id";
import { configuredClient } from "../../http/client";
import { formatUtc } from "../../output/format";
import { formatTable } from "../../output/table";

const catalogue: RoleAbility[] = Object.values(abilities).map((a) => ({ ...a }));

/** `Variance/Dashboard/View` → the ability; an unknown name lists those that exist. */
function parseAbility(text: string): RoleAbility {
  const found = catalogue.find((a) => abilityKey(a).toLowerCase() === text.toLowerCase());
  if (!found)
    throw new CliError(`Unknown ability '${text}'. Abilities: ${catalogue.map(abilityKey).join(", ")}`);
  return found;
}

/** A token's abilities for the table: 'all' for none named or the whole catalogue, else their names. */
export function abilitiesText(t: ApiToken) {
  return t.abilities.length === 0 || t.abilities.length === catalogue.length
    ? "all"
    : t.abilities.map(abilityKey).join(",");
}

/**
 * Whether a token's abilities count now (docs/settings.md, "Users, roles and tokens"): refused while
 * its user is disabled; those its user no longer holds are named.
 */
export function inForceText(t: ApiToken) {
  if (t.userDisabled) return "no: user disabled";
  const inForce = new Set(t.abilitiesInForce.map(abilityKey));
  const lapsed = t.abilities.filter((a) => !inForce.has(abilityKey(a)));
  if (lapsed.length === 0) return "yes";
  return `not ${lapsed.map(abilityKey).join(",")}`;
}

export async function runTokensList(ctx: CommandContext) {
  const { client } = configuredClient(ctx);
  const list = await client.call(listApiTokens);
  if (ctx.options.json) return ctx.terminal.json(list);
  if (list.length === 0) return ctx.terminal.out("No API tokens");
  ctx.terminal.out(
    formatTable([
      ["ID", "NAME", "TOKEN", "USER", "LAST USED", "IN FORCE", "ABILITIES"],
      ...list.map((t) => [
        t.tokenID,
        t.name,
        `${t.tokenPrefix}…`,
        t.userName,
        t.lastUsedAt ? formatUtc(t.lastUsedAt) : "never",
        inForceText(t),
        abilitiesText(t),
      ]),
    ]),
  );
}

export async function runTokensCreate(ctx: CommandContext, [name]: string[], options: { ability: string[] }) {
  const scope = options.ability.map(parseAbility);
  const { client } = configuredClient(ctx);
  const created = await client.call(createApiToken, {
    body: { name: name!, ...(scope.length ? { abilities: scope } : {}) },
  });
  if (ctx.options.json) return ctx.terminal.json(created);
  ctx.terminal.out(created.token);
  ctx.terminal.note(`Created token '${created.name}' (${created.tokenID}). It is shown only this once.`);
}

/**
 * `varia tokens revoke`: the token named by its id, or the first characters of its id or of the
 * token itself as `varia tokens list` shows them (`pickListed`), then revoked by its whole id.
 */
export async function runTokensRevoke(ctx: CommandContext, [given]: string[]) {
  const { client, target } = configuredClient(ctx);
  const token = pickListed(await client.call(listApiTokens), given!, {
    keys: (t) => [t.tokenID, t.tokenPrefix],
    describe: (t) => `${t.tokenID}  ${t.name}  ${t.tokenPrefix}…  ${t.userName}`,
    what: "token",
    whats: "tokens",
    listedBy: "varia tokens list",
  });
  await client.call(revokeApiToken, { query: { tokenID: token.tokenID } });
  if (ctx.options.json) ctx.terminal.json({ revoked: token.tokenID });
  else ctx.terminal.out(`Revoked ${token.tokenID} (${token.name})`);
  // Rotating tokens, the old one is easily the one still configured: the next command would be refused.
  if (target.token.startsWith(token.tokenPrefix))
    ctx.terminal.note(
      `That was the token this command used${target.profile ? ` (profile ${target.profile})` : " (VARIA_TOKEN)"}: varia's calls with it are refused from now on`,
    );
}
