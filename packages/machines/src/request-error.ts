/** What the machines read of a failed call: its HTTP status (0 or absent: no answer) and the server's body. */
export interface RequestError {
  status?: number;
  result?: unknown;
  serverMessage?: string;
}

export function statusOf(error: unknown): number | undefined {
  const status = (error as RequestError | undefined)?.status;
  return typeof status === "number" && status > 0 ? status : undefined;
}

/**
 * A request error with no status or status 500 means the server seems unavailable
 * (docs/behaviour.md#shell-and-start-up).
 */
export function seemsUnavailable(error: unknown): boolean {
  const status = statusOf(error);
  return status === undefined || status === 500;
}

export function serverMessageOf(error: unknown): string | undefined {
  const e = error as RequestError | undefined;
  if (typeof e?.serverMessage === "string") return e.serverMessage;
  const message = (e?.result as { message?: unknown } | undefined)?.message;
  return typeof message === "string" ? message : undefined;
}

/** An actor placeholder: the app provides the real one with `machine.provide`. */
export function notProvided(name: string): never {
  throw new Error(`The actor '${name}' was not provided`);
}
