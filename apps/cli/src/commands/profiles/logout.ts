import { configPath, defaultProfileName, readConfigFile, writeConfigFile } from "../../config/config-file";
import { chosenProfileName } from "../../config/resolve-target";
import type { CommandContext } from "../../context";
import { CliError } from "../../errors/cli-error";

/**
 * `varia logout`: forgets a stored profile (its token stays valid on the server until revoked with
 * `varia tokens revoke`).
 */
export async function runLogout(ctx: CommandContext) {
  const name = chosenProfileName(ctx.options, ctx.env) ?? defaultProfileName;
  const path = configPath(ctx.env);
  const config = readConfigFile(path);
  if (!config.profiles[name]) throw new CliError(`No profile '${name}' in ${path}`);
  delete config.profiles[name];
  writeConfigFile(path, config);
  if (ctx.options.json) ctx.terminal.json({ profile: name, removed: true, configFile: path });
  else ctx.terminal.out(`Removed profile '${name}' from ${path}`);
}
