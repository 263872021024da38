import type { CallInput } from "@varia/api-client";
import type { Contract, ResponseOf } from "@varia/contracts";
import { api, cacheCleared } from "../../api";
import type { CardCall, CardQueryContext } from "./card-types";

/**
 * Calls shared between cards, and between a page's prefetch and its cards: a call in flight is
 * sent once (the six KPI cards read one OverviewKpi), and an answer is kept for a few seconds so
 * that a card mounting after its page asked for its data takes that answer. A failure is not kept:
 * Try again asks again; nothing is kept past the api client forgetting its cache.
 */
const answerKeptMs = 5000;
const shared = new Map<string, { call: Promise<unknown>; until: number }>();
// An answer kept from before a change of data (an exclusion list, categories, a restore) is stale.
cacheCleared.addEventListener("cleared", () => shared.clear());

export function callShared<C extends Contract>(contract: C, input: CallInput<C>): Promise<ResponseOf<C>> {
  const key = `${contract.method} ${contract.root}${contract.path} ${JSON.stringify(input)}`;
  const now = performance.now();
  const known = shared.get(key);
  if (known && known.until > now) return known.call as Promise<ResponseOf<C>>;
  const entry = {
    call: (api.call as (c: C, i: CallInput<C>) => Promise<ResponseOf<C>>)(contract, input),
    until: Number.POSITIVE_INFINITY,
  };
  shared.set(key, entry);
  entry.call.then(
    () => {
      entry.until = performance.now() + answerKeptMs;
    },
    () => {
      if (shared.get(key) === entry) shared.delete(key);
    },
  );
  for (const [k, v] of shared) if (v.until <= now) shared.delete(k);
  return entry.call as Promise<ResponseOf<C>>;
}

/** The load function of a card that makes one call. */
export function loadCall<C extends Contract, D>(call: CardCall<C, D>) {
  return async (context: CardQueryContext): Promise<D | null> => {
    const response = await callShared(call.contract, call.input(context));
    return call.select(response, context);
  };
}
