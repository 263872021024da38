import { CliError } from "../errors/cli-error";
import { type ConfigFile, configPath, defaultProfileName, readConfigFile } from "./config-file";

/** The server a command calls and the token it calls with, and where they came from. */
export interface Target {
  host: string;
  token: string;
  /** The stored profile used, or null when the environment gave both host and token. */
  profile: string | null;
}

/**
 * A server address as stored and called (`source` names where it came from): http(s), its origin and
 * the path it is served under, without a trailing slash or a trailing `/api`, to which every call's
 * `/api/...` is added. So `https://acme.example.com/varia/` calls `https://acme.example.com/varia/api/...`,
 * and an address pasted with the API's own `/api` does not call `/api/api/...`. An address with a
 * user name, a query or a fragment is a usage error: none of them would survive the joining.
 */
export function normaliseHost(text: string, source: string): string {
  const invalid = (why: string) => new CliError(`Invalid ${source} '${text}': ${why}`);
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw invalid("expected an address such as https://acme.example.com");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw invalid("expected http:// or https://");
  if (url.username || url.password)
    throw invalid("no user name or password in the address (the API token goes in --token or VARIA_TOKEN)");
  if (url.search || url.hash)
    throw invalid(
      "no query (?) or fragment (#): expected the address Varia is served at, such as https://acme.example.com/varia",
    );
  const path = url.pathname
    .replace(/\/{2,}/g, "/")
    .replace(/\/+$/, "")
    .replace(/\/api$/, "");
  return url.origin + path;
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
 * value), then the `default` profile. A named profile that is not stored is a usage error. The
 * profiles file is read only when it is needed: with both variables set and no profile named, a
 * broken or unreadable file (a shared CI runner's) is no concern of the command.
 */
export function resolveTarget(
  options: { profile?: string | undefined },
  env: NodeJS.ProcessEnv,
  stored?: ConfigFile,
): Target {
  const named = chosenProfileName(options, env);
  if (!named && env.VARIA_HOST && env.VARIA_TOKEN)
    return { host: normaliseHost(env.VARIA_HOST, "VARIA_HOST"), token: env.VARIA_TOKEN, profile: null };
  const config = stored ?? readConfigFile(configPath(env));
  if (named) {
    const profile = config.profiles[named];
    if (!profile) {
      const known = Object.keys(config.profiles);
      throw new CliError(
        `No profile '${named}' in ${configPath(env)}: run \`varia login --profile ${named}\`` +
          (known.length ? ` (stored: ${known.join(", ")})` : ""),
      );
    }
    return {
      ...profile,
      host: normaliseHost(profile.host, `host of the profile '${named}'`),
      profile: named,
    };
  }
  const fallback = config.profiles[defaultProfileName];
  const host = env.VARIA_HOST || fallback?.host;
  const token = env.VARIA_TOKEN || fallback?.token;
  // One of the pair given and the other not: in CI, most often a secret that is not set for this
  // job (a fork's pull request, another environment), which the shell expands to nothing.
  const given = (["VARIA_HOST", "VARIA_TOKEN"] as const).filter((name) => env[name]?.trim());
  if (given.length === 1 && (!host || !token)) {
    const missing = given[0] === "VARIA_HOST" ? "VARIA_TOKEN" : "VARIA_HOST";
    throw new CliError(
      `${given[0]} is set but ${missing} is ${missing in env ? "empty" : "not set"}: set ${missing} ` +
        (missing === "VARIA_TOKEN" ? "to an API token" : "to the server's address") +
        ", or use a stored profile (--profile or VARIA_PROFILE)",
    );
  }
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
