import { exclusionClientList, exclusionSkuList } from "@varia/contracts";
import { api } from "../../../api";
import type { LookupSearch } from "../../../ui/LookupPicker";

/**
 * The pickers of a list's clients and items (Exclusion/GetClientList, GetSkuList): an option's key
 * is the code (a list holds codes, docs/settings.md), its detail says when another list holds it.
 */
export function searchListEntries(kind: "clients" | "items", listId: string | null): LookupSearch {
  const onOther = (ids: string[]) => (ids.some((id) => id !== listId) ? " · on another list" : "");
  return async (text, startRow, rowLimit) => {
    const body = { search: text || null, startRow, rowLimit };
    if (kind === "clients") {
      const page = await api.call(exclusionClientList, { body });
      return {
        options: page.rows.map((r) => ({
          key: r.code,
          label: r.name,
          detail: `${r.code}${onOther(r.exclusionHeaderIDs)}`,
        })),
        total: page.rowCount,
      };
    }
    const page = await api.call(exclusionSkuList, { body });
    return {
      options: page.rows.map((r) => ({
        key: r.code,
        label: r.name,
        detail: `${r.code} · ${r.stockType}${onOther(r.exclusionHeaderIDs)}`,
      })),
      total: page.rowCount,
    };
  };
}
