import { type ApiClient, type Clock, createApiClient, systemClock } from "@varia/api-client";
import { contractPath } from "@varia/contracts";
import { resolveTarget, type Target } from "../config/resolve-target";
import type { CommandContext } from "../context";
import { CliError } from "../errors/cli-error";
import { isWebPage, notVariaApi } from "../errors/describe-failure";
import { exitCodes } from "../errors/exit-codes";
import { loopbackLookup } from "./loopback-lookup";
import { Agent, FormData as UndiciFormData, fetch as undiciFetch } from "./undici-parts";

/**
 * The connection pool of one command: `localhost` and `*.localhost` resolved to the loopback
 * address by the CLI itself, and `--timeout` as undici's three limits: to connect, to receive an
 * answer's headers once the request is sent, and between two pieces of its body. So a call gives up
 * after that long without an answer, while an upload or download goes on as long as bytes flow.
 */
export function agentFor(ctx: CommandContext): Agent {
  const timeout = ctx.options.timeout;
  const agent = new Agent({
    connect: { lookup: loopbackLookup as never, timeout },
    headersTimeout: timeout,
    bodyTimeout: timeout,
  });
  ctx.onClose(() => agent.destroy());
  return agent;
}

/**
 * The system clock, except that a wait before a retry ends at once when the command closes: a call
 * still under way when a command fails (the profile asked for beside a report that does not exist)
 * loses its connection then, and must not keep the process alive through its retries' waits.
 */
function closingClock(closing: AbortSignal): Clock {
  return {
    ...systemClock,
    sleep: (ms, signal) => systemClock.sleep(ms, signal ? AbortSignal.any([signal, closing]) : closing),
  };
}

/** A client of `target`'s server signing every call with its API token. */
export function clientFor(
  ctx: CommandContext,
  target: Target,
  options: { agent?: Agent; retry?: boolean } = {},
): ApiClient {
  const agent = options.agent ?? agentFor(ctx);
  const authorization = `Bearer ${target.token}`;
  const closing = new AbortController();
  const client = createApiClient({
    baseUrl: target.host,
    fetch: ((input: string, init: RequestInit) =>
      undiciFetch(input, { ...(init as object), dispatcher: agent } as never)) as unknown as typeof fetch,
    FormData: UndiciFormData as unknown as typeof FormData,
    headers: () => ({ authorization }),
    clock: closingClock(closing.signal),
    ...(options.retry === false ? { retry: false } : {}),
  });
  ctx.onClose(() => {
    closing.abort();
    client.dispose();
  });
  // A file is taken as the server sends it, whatever its type: a web page instead (a host whose
  // path is wrong gets the web app's page, a proxy its sign-in page) would be saved as the export.
  const download: ApiClient["download"] = async (contract, ...args) => {
    const file = await client.download(contract, ...args);
    if (isWebPage(file.contentType)) {
      const call = contractPath(
        contract,
        (args[0] as { params?: Record<string, string> } | undefined)?.params,
      );
      throw new CliError(
        notVariaApi(target.host, call, `a web page (${file.contentType})`),
        exitCodes.serverFailed,
      );
    }
    return file;
  };
  return { ...client, download };
}

/** The client of the host and token the command's options and environment choose. */
export function configuredClient(ctx: CommandContext): { client: ApiClient; target: Target } {
  const target = resolveTarget(ctx.options, ctx.env);
  return { client: clientFor(ctx, target), target };
}
