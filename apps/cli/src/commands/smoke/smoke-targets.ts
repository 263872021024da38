import { configPath, readConfigFile } from "../../config/config-file";
import { normaliseHost } from "../../config/resolve-target";
import { CliError } from "../../errors/cli-error";

/** One tenant to check: its name, address and token. */
export interface SmokeTarget {
  tenant: string;
  host: string;
  token: string;
}

function list(text: string): string[] {
  return [
    ...new Set(
      text
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
}

/** The variable that holds a tenant's token: `VARIA_TOKEN_ACME_EU` for `acme-eu`. */
export function tokenVariable(tenant: string): string {
  return `VARIA_TOKEN_${tenant.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;
}

/**
 * The tenants of a smoke test: `--tenant a,b` at `--host-pattern` (tokens from `VARIA_TOKEN_<T>`,
 * else the profile named after the tenant), or the profiles of `--profile a,b`. Whatever is missing
 * is a usage error that names it, before any call.
 */
export function smokeTargets(
  options: { tenant?: string; hostPattern?: string; profile?: string },
  env: NodeJS.ProcessEnv,
): SmokeTarget[] {
  const path = configPath(env);
  const { profiles } = readConfigFile(path);
  if (options.tenant && options.profile)
    throw new CliError(
      "Give the tenants either with --tenant (and --host-pattern) or with --profile, not both",
    );
  if (options.tenant) {
    const pattern = options.hostPattern;
    if (!pattern) throw new CliError("--tenant needs --host-pattern, e.g. https://{tenant}.example.com");
    if (!pattern.includes("{tenant}"))
      throw new CliError(`Invalid --host-pattern '${pattern}': it must contain {tenant}`);
    const tenants = list(options.tenant);
    const missing: string[] = [];
    const targets = tenants.map((tenant) => {
      const token = env[tokenVariable(tenant)] || profiles[tenant]?.token;
      if (!token)
        missing.push(`${tenant} (set ${tokenVariable(tenant)} or run \`varia login --profile ${tenant}\`)`);
      const host = normaliseHost(pattern.replaceAll("{tenant}", tenant), "--host-pattern");
      return { tenant, host, token: token ?? "" };
    });
    if (missing.length) throw new CliError(`No API token for ${missing.join("; ")}`);
    return targets;
  }
  if (options.hostPattern) throw new CliError("--host-pattern needs --tenant");
  if (options.profile) {
    return list(options.profile).map((name) => {
      const profile = profiles[name];
      if (!profile)
        throw new CliError(`No profile '${name}' in ${path}: run \`varia login --profile ${name}\``);
      return {
        tenant: name,
        host: normaliseHost(profile.host, `host of the profile '${name}'`),
        token: profile.token,
      };
    });
  }
  throw new CliError(
    "Name the tenants to check: --tenant a,b,c --host-pattern https://{tenant}.example.com, or --profile a,b",
  );
}
