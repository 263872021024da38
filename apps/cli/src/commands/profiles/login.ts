import { createInterface } from "node:readline/promises";
import { Writable } from "node:stream";
import { authorisedPing } from "@varia/contracts";
import {
  configPath,
  defaultProfileName,
  profileNamePattern,
  readConfigFile,
  writeConfigFile,
} from "../../config/config-file";
import { chosenProfileName, normaliseHost } from "../../config/resolve-target";
import type { CommandContext } from "../../context";
import { CliError } from "../../errors/cli-error";
import { clientFor } from "../../http/client";

interface LoginOptions {
  host?: string;
  token?: string;
  withToken?: boolean;
}

/** Asks on the terminal; a secret is not echoed. Without a terminal, names the flag to pass. */
async function ask(question: string, flag: string, secret = false): Promise<string> {
  if (!process.stdin.isTTY) throw new CliError(`Missing ${flag}`);
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  try {
    const answer = rl.question(question);
    muted = secret;
    return (await answer).trim();
  } finally {
    if (secret) process.stderr.write("\n");
    rl.close();
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8").trim();
}

/** `varia login`: checks the host and token with AuthorisedPing, then stores them (0600). */
export async function runLogin(ctx: CommandContext, _args: string[], options: LoginOptions) {
  const name = chosenProfileName(ctx.options, ctx.env) ?? defaultProfileName;
  if (!profileNamePattern.test(name))
    throw new CliError(`Invalid profile name '${name}': letters, digits, '.', '_' and '-'`);
  if (options.token && options.withToken) throw new CliError("Give either --token or --with-token, not both");
  const host = normaliseHost(options.host ?? (await ask("Host: ", "--host")), "--host");
  const token = options.withToken
    ? await readStdin()
    : (options.token ?? (await ask("API token: ", "--token (or --with-token)", true)));
  if (!token) throw new CliError("Missing the API token: standard input was empty");
  const { profile } = await clientFor(ctx, { host, token, profile: name }).call(authorisedPing);
  const path = configPath(ctx.env);
  const config = readConfigFile(path);
  config.profiles[name] = { host, token };
  writeConfigFile(path, config);
  const result = {
    profile: name,
    host,
    organisation: profile.organisationName,
    user: profile.email,
    configFile: path,
  };
  if (ctx.options.json) ctx.terminal.json(result);
  else
    ctx.terminal.out(
      `Logged in to ${profile.organisationName} as ${profile.email}: profile '${name}' saved to ${path}`,
    );
}
