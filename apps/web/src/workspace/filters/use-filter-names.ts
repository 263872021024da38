import { skuDetail, specificClientDetail, specificSalespersonDetail } from "@varia/contracts";
import { useEffect, useState } from "react";
import { api } from "../../api";
import type { ViewFilter } from "./view-filter";

export interface FilterNames {
  client?: string;
  service?: string;
  salesperson?: string;
}

/**
 * The names of the client, service and salesperson a view is filtered by when its address names
 * them by id only (a shared link, or a detail's subject made a filter on the way to a list): from
 * the detail calls, cached, so that a filter reads 'Client: Acme Ltd', not 'Client: #18'.
 */
export function useFilterNames(filter: ViewFilter): FilterNames {
  const [names, setNames] = useState<FilterNames>({});
  const clientID = filter.client ? null : filter.clientID;
  const stockItemID = filter.stockItem ? null : filter.stockItemID;
  const salespersonID = filter.salesperson ? null : filter.salespersonID;
  const { dateFrom, dateTo } = filter;
  useEffect(() => {
    let live = true;
    const months = { ...(dateFrom ? { dateFrom } : {}), ...(dateTo ? { dateTo } : {}) };
    const found: FilterNames = {};
    const asks: Promise<unknown>[] = [];
    if (clientID)
      asks.push(
        api.call(specificClientDetail, { query: { ...months, clientID } }, { cache: true }).then((d) => {
          found.client = d.clientName;
        }),
      );
    if (stockItemID)
      asks.push(
        api.call(skuDetail, { query: { ...months, stockItemID } }, { cache: true }).then((d) => {
          found.service = d.itemName;
        }),
      );
    if (salespersonID)
      asks.push(
        api
          .call(
            specificSalespersonDetail,
            { query: { ...months, contactID: salespersonID } },
            { cache: true },
          )
          .then((d) => {
            found.salesperson = d.name;
          }),
      );
    if (!asks.length) setNames({});
    else Promise.allSettled(asks).then(() => live && setNames(found));
    return () => {
      live = false;
    };
  }, [clientID, stockItemID, salespersonID, dateFrom, dateTo]);
  return names;
}
