import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

export interface CliConfig {
  host: string;
  token: string;
}

/** Where `varia login` keeps the host and token: `$VARIA_CONFIG_DIR` or `~/.config/varia`. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.VARIA_CONFIG_DIR ?? join(homedir(), ".config", "varia"), "config.json");
}

export function readConfigFile(path: string): Partial<CliConfig> {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as Partial<CliConfig>;
  } catch {
    return {};
  }
}

/** Writes the config readable by its owner only: the folder 0700, the file 0600. */
export function writeConfigFile(path: string, config: CliConfig): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}

/** The host and token to use: `VARIA_HOST` and `VARIA_TOKEN` override the stored ones. */
export function resolveConfig(env: NodeJS.ProcessEnv = process.env): Partial<CliConfig> {
  const stored = readConfigFile(configPath(env));
  return {
    host: env.VARIA_HOST || stored.host,
    token: env.VARIA_TOKEN || stored.token,
  };
}
