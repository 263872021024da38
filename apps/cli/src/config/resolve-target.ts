import { CliError } from "../errors/cli-error";
import { type ConfigFile, configPath, defaultProfileName, readConfigFile } from "./config-file";

/** The server a command calls and the token it calls with, and where they came from. */
export interface Target {
  host: string;
  token: string;
  /** The stored profile used, or null when the environment gave both host and token. */
  profile: string | null;
}

/** A server address as stored and called: http(s), no trailing slash; `source` names where it came from. */
export function normaliseHost(text: string, source: string): string {
  const host = text.trim().replace(/\/+$/, "");
  let url: URL;
  try {
    url = new URL(host);
  } catch {
    throw new CliError(`Invalid ${source} '${text}': expected an address such as https://acme.example.com`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new CliError(`Invalid ${source} '${text}': expected http:// or https://`);
  return host;
}

/** The profile named by `--profile`, else by `VARIA_PROFILE`; undefined when neither names one. */
export function chosenProfileName(
  options: { profile?: string | undefined },
  env: NodeJS.ProcessEnv,
): string | undefined {
  return options.profile || env.VARIA_PROFILE || undefined;
}

/**
 * Chooses the host and token, strongest first, as gh and the cloud CLIs do: `--profile NAME`, then
 * `VARIA_PROFILE`, then `VARIA_HOST` and `VARIA_TOKEN` (each over the `default` profile's own
 * value), then the `default` profile. A named profile that is not stored is a usage error.
 */
export function resolveTarget(
  options: { profile?: string | undefined },
  env: NodeJS.ProcessEnv,
  config: ConfigFile = readConfigFile(configPath(env)),
): Target {
  const named = chosenProfileName(options, env);
  if (named) {
    const profile = config.profiles[named];
    if (!profile) {
      const known = Object.keys(config.profiles);
      throw new CliError(
        `No profile '${named}' in ${configPath(env)}: run \`varia login --profile ${named}\`` +
          (known.length ? ` (stored: ${known.join(", ")})` : ""),
      );
    }
    return { ...profile, profile: named };
  }
  const fallback = config.profiles[defaultProfileName];
  const host = env.VARIA_HOST || fallback?.host;
  const token = env.VARIA_TOKEN || fallback?.token;
  if (!host || !token) {
    const stored = Object.keys(config.profiles);
    throw new CliError(
      "Not logged in: run `varia login`, choose a profile with --profile or VARIA_PROFILE, or set VARIA_HOST and VARIA_TOKEN" +
        (stored.length
          ? ` (stored profiles: ${stored.join(", ")}; \`varia login\` without --profile stores 'default')`
          : ""),
    );
  }
  const fromFile = (!env.VARIA_HOST || !env.VARIA_TOKEN) && fallback !== undefined;
  const source = env.VARIA_HOST ? "VARIA_HOST" : `host of the profile '${defaultProfileName}'`;
  return { host: normaliseHost(host, source), token, profile: fromFile ? defaultProfileName : null };
}
