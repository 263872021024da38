import type { ClientPolicy } from "@varia/contracts";
import { ApiError } from "./api-error";
import type { Clock } from "./clock";

/**
 * docs/api.md#retries-and-caching: lookups 3 attempts 1.5 s apart; elsewhere 2 retries, 1500 ms base
 * doubling, ~10% jitter.
 */
export const retryPolicy = {
  retries: 2,
  baseMs: 1500,
  jitter: 0.1,
  lookupAttempts: 3,
  lookupGapMs: 1500,
} as const;

/** The waits before each retry of a call under a policy. */
export function retryDelays(policy: ClientPolicy, random: () => number): number[] {
  switch (policy) {
    case "never":
      return [];
    case "lookup":
      return Array.from({ length: retryPolicy.lookupAttempts - 1 }, () => retryPolicy.lookupGapMs);
    case "default":
      return Array.from({ length: retryPolicy.retries }, (_, i) => {
        const base = retryPolicy.baseMs * 2 ** i;
        return Math.round(base * (1 + (random() * 2 - 1) * retryPolicy.jitter));
      });
  }
}

/** Whether a failure may be tried again: network failures and 5xx, never 4xx. */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return error.status === 0 || error.status >= 500;
}

export async function withRetries<T>(
  attempt: () => Promise<T>,
  delays: number[],
  clock: Clock,
  signal?: AbortSignal,
): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      const delay = delays[i];
      if (delay === undefined || !isRetryable(error) || signal?.aborted) {
        if (error instanceof ApiError) error.attempts = i + 1;
        throw error;
      }
      await clock.sleep(delay, signal);
    }
  }
}
