import { type ApiClient, createApiClient } from "@varia/api-client";
import { FormData as UndiciFormData, fetch as undiciFetch } from "undici";
import { CliError } from "./cli-error";
import { resolveConfig } from "./config-file";

/** A client for the configured host, signing every call with the API token. */
export function clientFor(config: { host?: string; token?: string }): ApiClient {
  if (!config.host || !config.token) {
    throw new CliError("Not logged in: run `varia login`, or set VARIA_HOST and VARIA_TOKEN");
  }
  const token = config.token;
  return createApiClient({
    baseUrl: config.host,
    fetch: undiciFetch as unknown as typeof fetch,
    FormData: UndiciFormData as unknown as typeof FormData,
    headers: () => ({ authorization: `Bearer ${token}` }),
  });
}

export function configuredClient(env: NodeJS.ProcessEnv = process.env): ApiClient {
  return clientFor(resolveConfig(env));
}
