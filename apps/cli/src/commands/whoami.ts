import { authorisedPing } from "@varia/contracts";
import type { Command } from "commander";
import { configuredClient } from "../client";
import { resolveConfig } from "../config-file";
import { type Output, printJson } from "../output";

/** `varia whoami`: the organisation and user the token belongs to. */
export function registerWhoami(program: Command, output: Output) {
  program
    .command("whoami")
    .description("Show the organisation and user of the configured token")
    .option("--json", "print JSON")
    .action(async (options: { json?: boolean }) => {
      const { profile } = await configuredClient().call(authorisedPing);
      const result = {
        host: resolveConfig().host,
        organisation: { id: profile.organisationGUID, name: profile.organisationName },
        user: {
          id: profile.userGUID,
          name: profile.name,
          email: profile.email,
          isAdmin: profile.userIsAdmin,
        },
      };
      if (options.json) printJson(output, result);
      else output.out(`${profile.name} <${profile.email}> at ${profile.organisationName} (${result.host})`);
    });
}
