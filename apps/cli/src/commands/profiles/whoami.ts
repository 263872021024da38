import { authorisedPing } from "@varia/contracts";
import type { CommandContext } from "../../context";
import { configuredClient } from "../../http/client";

/** `varia whoami`: the organisation and user the chosen token belongs to. */
export async function runWhoami(ctx: CommandContext) {
  const { client, target } = configuredClient(ctx);
  const { profile } = await client.call(authorisedPing);
  const result = {
    profile: target.profile,
    host: target.host,
    organisation: {
      id: profile.organisationGUID,
      name: profile.organisationName,
      currency: profile.subscriptionCurrencyCode,
    },
    user: { id: profile.userGUID, name: profile.name, email: profile.email, isAdmin: profile.userIsAdmin },
  };
  if (ctx.options.json) ctx.terminal.json(result);
  else
    ctx.terminal.out(
      `${profile.name} <${profile.email}> at ${profile.organisationName} (${target.host}${
        target.profile ? `, profile '${target.profile}'` : ""
      })`,
    );
}
