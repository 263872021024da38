import { skuDetail, specificClientDetail, specificSalespersonDetail } from "@varia/contracts";
import { useEffect, useState } from "react";
import { api } from "../../api";
import type { ViewFilter } from "./view-filter";

export interface DimensionNames {
  client?: string;
  service?: string;
  salesperson?: string;
  /** An id whose detail has no name: the organisation's data has not got it (the first such). */
  unknown?: "client" | "service" | "salesperson";
}

/** The ids to name; a null or undefined one is not asked for. */
export interface DimensionIds {
  clientID?: string | null | undefined;
  stockItemID?: string | null | undefined;
  salespersonID?: string | null | undefined;
}

/**
 * The names of a client, service and salesperson given by id, from the detail calls over the
 * view's months (cached: the crumbs, chips and panels of a page ask the same), answered together
 * once every call has settled.
 */
export function useDimensionNames(ids: DimensionIds, filter: Pick<ViewFilter, "dateFrom" | "dateTo">) {
  const [names, setNames] = useState<DimensionNames>({});
  const { clientID, stockItemID, salespersonID } = ids;
  const { dateFrom, dateTo } = filter;
  useEffect(() => {
    let live = true;
    const months = { ...(dateFrom ? { dateFrom } : {}), ...(dateTo ? { dateTo } : {}) };
    const found: DimensionNames = {};
    const named = (kind: "client" | "service" | "salesperson", name: string | null | undefined) => {
      if (name) found[kind] = name;
      else found.unknown ??= kind;
    };
    const asks: Promise<unknown>[] = [];
    if (clientID)
      asks.push(
        api
          .call(specificClientDetail, { query: { ...months, clientID } }, { cache: true })
          .then((d) => named("client", d.clientName)),
      );
    if (stockItemID)
      asks.push(
        api
          .call(skuDetail, { query: { ...months, stockItemID } }, { cache: true })
          .then((d) => named("service", d.itemName)),
      );
    if (salespersonID)
      asks.push(
        api
          .call(
            specificSalespersonDetail,
            { query: { ...months, contactID: salespersonID } },
            { cache: true },
          )
          .then((d) => named("salesperson", d.name)),
      );
    if (!asks.length) setNames({});
    else Promise.allSettled(asks).then(() => live && setNames(found));
    return () => {
      live = false;
    };
  }, [clientID, stockItemID, salespersonID, dateFrom, dateTo]);
  return names;
}
