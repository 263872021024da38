import { configPath, defaultProfileName, readConfigFile, tokenPrefix } from "../../config/config-file";
import { chosenProfileName } from "../../config/resolve-target";
import type { CommandContext } from "../../context";
import { formatTable } from "../../output/table";

/**
 * `varia profiles`: the stored profiles, the one in use marked. A token is shown by its first
 * characters only, never whole.
 */
export async function runProfiles(ctx: CommandContext, _args: string[], options: { names?: boolean }) {
  const path = configPath(ctx.env);
  const { profiles } = readConfigFile(path);
  const names = Object.keys(profiles).sort();
  if (options.names) {
    if (names.length) ctx.terminal.out(names.join("\n"));
    return;
  }
  const chosen = chosenProfileName(ctx.options, ctx.env);
  const active =
    chosen ??
    (ctx.env.VARIA_HOST && ctx.env.VARIA_TOKEN
      ? null
      : profiles[defaultProfileName]
        ? defaultProfileName
        : null);
  const list = names.map((name) => ({
    name,
    host: profiles[name]!.host,
    tokenPrefix: tokenPrefix(profiles[name]!.token),
    active: name === active,
  }));
  if (ctx.options.json) {
    ctx.terminal.json({ configFile: path, active, profiles: list });
    return;
  }
  if (!list.length) {
    ctx.terminal.out(`No profiles in ${path}: run \`varia login --profile NAME\``);
    return;
  }
  const rows = [
    ["", "PROFILE", "HOST", "TOKEN"],
    ...list.map((p) => [p.active ? "*" : "", p.name, p.host, p.tokenPrefix]),
  ];
  ctx.terminal.out(formatTable(rows));
  if (ctx.env.VARIA_HOST && ctx.env.VARIA_TOKEN && !chosen)
    ctx.terminal.note("VARIA_HOST and VARIA_TOKEN are set: commands use them, not a stored profile.");
}
