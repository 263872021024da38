import { createInterface } from "node:readline/promises";
import { authorisedPing } from "@varia/contracts";
import type { Command } from "commander";
import { CliError } from "../cli-error";
import { clientFor } from "../client";
import { configPath, writeConfigFile } from "../config-file";
import { type Output, printJson } from "../output";

async function ask(question: string): Promise<string> {
  if (!process.stdin.isTTY) throw new CliError(`Missing ${question.replace(/: $/, "")}: pass it as a flag`);
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

/** `varia login`: checks the host and token with a ping, then stores them (mode 0600). */
export function registerLogin(program: Command, output: Output) {
  program
    .command("login")
    .description("Store the server address and an API token (checked against the server first)")
    .option("--host <url>", "the Varia server, e.g. http://localhost:8080")
    .option("--token <token>", "an API token (varia-server token create, or Settings)")
    .option("--json", "print JSON")
    .action(async (options: { host?: string; token?: string; json?: boolean }) => {
      const host = (options.host ?? (await ask("Host: "))).replace(/\/$/, "");
      const token = options.token ?? (await ask("API token: "));
      if (!/^https?:\/\//.test(host))
        throw new CliError(`Invalid --host '${host}': expected http:// or https://`);
      const { profile } = await clientFor({ host, token }).call(authorisedPing);
      const path = configPath();
      writeConfigFile(path, { host, token });
      const result = { host, organisation: profile.organisationName, user: profile.email, configFile: path };
      if (options.json) printJson(output, result);
      else output.out(`Logged in to ${profile.organisationName} as ${profile.email} (saved to ${path})`);
    });
}
