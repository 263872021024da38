import { skuDetail, specificClientDetail, specificSalespersonDetail } from "@varia/contracts";
import { useEffect, useState } from "react";
import { api } from "../../api";
import type { ViewFilter } from "../filters/view-filter";
import type { SubjectNames } from "./drill-path";

/**
 * The names of a view's level-3 subject (client, service, salesperson) for its crumbs and headings,
 * from the detail calls (cached: the crumbs of every level ask the same). A detail without a name is
 * of a subject the data has not got (`unknown`).
 */
export function useSubjectNames(filter: ViewFilter): SubjectNames {
  const [names, setNames] = useState<SubjectNames>({});
  const { thirdClientID, thirdStockItemID, salespersonID, dateFrom, dateTo } = filter;
  useEffect(() => {
    let live = true;
    const months = { ...(dateFrom ? { dateFrom } : {}), ...(dateTo ? { dateTo } : {}) };
    const found: SubjectNames = {};
    const asks: Promise<unknown>[] = [];
    if (thirdClientID)
      asks.push(
        api
          .call(specificClientDetail, { query: { ...months, clientID: thirdClientID } }, { cache: true })
          .then((d) => {
            if (d.clientName) found.client = d.clientName;
            else found.unknown ??= "client";
          }),
      );
    if (thirdStockItemID)
      asks.push(
        api
          .call(skuDetail, { query: { ...months, stockItemID: thirdStockItemID } }, { cache: true })
          .then((d) => {
            if (d.itemName) found.service = d.itemName;
            else found.unknown ??= "service";
          }),
      );
    if (!thirdClientID && !thirdStockItemID && salespersonID)
      asks.push(
        api
          .call(
            specificSalespersonDetail,
            { query: { ...months, contactID: salespersonID } },
            { cache: true },
          )
          .then((d) => {
            if (d.name) found.salesperson = d.name;
            else found.unknown ??= "salesperson";
          }),
      );
    Promise.allSettled(asks).then(() => live && setNames(found));
    return () => {
      live = false;
    };
  }, [thirdClientID, thirdStockItemID, salespersonID, dateFrom, dateTo]);
  return names;
}
