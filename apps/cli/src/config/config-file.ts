import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { CliError } from "../errors/cli-error";

/** A server and the API token to call it with. */
export interface Profile {
  host: string;
  token: string;
}

/** What `~/.config/varia/config.json` holds: named profiles. */
export interface ConfigFile {
  profiles: Record<string, Profile>;
}

/** The profile used when none is named (`varia login` without `--profile` writes it). */
export const defaultProfileName = "default";

/** A profile name: letters, digits, `.`, `_` and `-`, as tenants and environments are named. */
export const profileNamePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Where the profiles live: `$VARIA_CONFIG_DIR/config.json`, else `$XDG_CONFIG_HOME/varia/config.json`
 * (when it is an absolute path, as the XDG spec asks), else `~/.config/varia/config.json`.
 */
export function configPath(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : undefined;
  const dir = env.VARIA_CONFIG_DIR || join(xdg ?? join(homedir(), ".config"), "varia");
  return join(dir, "config.json");
}

function isProfile(value: unknown): value is Profile {
  const p = value as Partial<Profile> | null;
  return typeof p?.host === "string" && typeof p.token === "string";
}

/**
 * Reads the profiles; a missing file holds none. The file of earlier versions (one host and token)
 * reads as the profile `default`. A file that is not the CLI's JSON is an error naming it.
 */
export function readConfigFile(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { profiles: {} };
    throw new CliError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliError(`${path} is not valid JSON: fix it, or delete it and run \`varia login\` again`);
  }
  if (isProfile(parsed))
    return { profiles: { [defaultProfileName]: { host: parsed.host, token: parsed.token } } };
  const profiles = (parsed as Partial<ConfigFile> | null)?.profiles;
  if (!profiles || typeof profiles !== "object") return { profiles: {} };
  return {
    profiles: Object.fromEntries(
      Object.entries(profiles)
        .filter(([, p]) => isProfile(p))
        .map(([name, p]) => [name, { host: p.host, token: p.token }]),
    ),
  };
}

/**
 * Writes the profiles readable by their owner only: the folder 0700, the file 0600 (also when it
 * existed with wider rights), through a temporary file renamed into place, so a reader never sees
 * half a file.
 */
export function writeConfigFile(path: string, config: ConfigFile): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}

/** The first characters of a token, which tell tokens apart without giving one away. */
export function tokenPrefix(token: string): string {
  return `${token.slice(0, "varia_".length + 4)}…`;
}
