import type { Command } from "commander";
import type { Lazy } from "../../program";

/** `varia login`, `logout`, `profiles` and `whoami`: where the CLI calls and as whom. */
export function defineProfiles(program: Command, lazy: Lazy) {
  program
    .command("login")
    .description(
      "Check a server address and API token, then store them as a profile (--profile NAME, else `default`)",
    )
    .option("--host <url>", "the Varia server, e.g. https://acme.example.com or http://acme.localhost:8080")
    .option("--token <token>", "an API token (varia-server token create, or Settings); see also --with-token")
    .option("--with-token", "read the API token from standard input, keeping it out of the process list")
    .action(lazy(() => import("./login").then((m) => m.runLogin)));

  program
    .command("logout")
    .description("Forget a stored profile (--profile NAME, else VARIA_PROFILE, else `default`)")
    .action(lazy(() => import("./logout").then((m) => m.runLogout)));

  program
    .command("profiles")
    .description("List the stored profiles: name, host and the token's first characters only")
    .option("--names", "print only the names, one a line")
    .action(lazy(() => import("./list-profiles").then((m) => m.runProfiles)));

  program
    .command("whoami")
    .description("Show the organisation and user of the chosen profile's token")
    .action(lazy(() => import("./whoami").then((m) => m.runWhoami)));
}
