import type { CallInput } from "@varia/api-client";
import type { Contract, ResponseOf } from "@varia/contracts";
import { api } from "../../api";
import type { CardCall, CardQueryContext } from "./card-types";

/**
 * Calls in flight, shared: cards that ask the same question at once (the six KPI cards read one
 * OverviewKpi) send it once. Nothing is kept after the answer: the next load asks again.
 */
const inFlight = new Map<string, Promise<unknown>>();

export function callShared<C extends Contract>(contract: C, input: CallInput<C>): Promise<ResponseOf<C>> {
  const key = `${contract.method} ${contract.root}${contract.path} ${JSON.stringify(input)}`;
  const pending = inFlight.get(key);
  if (pending) return pending as Promise<ResponseOf<C>>;
  const call = (api.call as (c: C, i: CallInput<C>) => Promise<ResponseOf<C>>)(contract, input).finally(() =>
    inFlight.delete(key),
  );
  inFlight.set(key, call);
  return call;
}

/** The load function of a card that makes one call. */
export function loadCall<C extends Contract, D>(call: CardCall<C, D>) {
  return async (context: CardQueryContext): Promise<D | null> => {
    const response = await callShared(call.contract, call.input(context));
    return call.select(response, context);
  };
}
