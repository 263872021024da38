import { lookupClientList, lookupSalespersonList, lookupSkuList } from "@varia/contracts";
import { api } from "../../api";
import type { LookupSearch } from "../../ui/LookupPicker";

/** The lookup calls as searches for pickers: clients, items (services) and salespeople. */
export const searchClients: LookupSearch = async (text, startRow, rowLimit) => {
  const page = await api.call(lookupClientList, { body: { search: text || null, startRow, rowLimit } });
  return {
    options: page.rows.map((r) => ({ key: r.clientID, label: r.name, detail: r.code })),
    total: page.rowCount,
  };
};

export const searchItems: LookupSearch = async (text, startRow, rowLimit) => {
  const page = await api.call(lookupSkuList, { body: { search: text || null, startRow, rowLimit } });
  return {
    options: page.rows.map((r) => ({
      key: r.stockItemID,
      label: r.name,
      detail: `${r.code} · ${r.stockType}`,
    })),
    total: page.rowCount,
  };
};

export const searchSalespeople: LookupSearch = async (text, startRow, rowLimit) => {
  const page = await api.call(lookupSalespersonList, { body: { search: text || null, startRow, rowLimit } });
  return { options: page.rows.map((r) => ({ key: r.salespersonID, label: r.name })), total: page.rowCount };
};
