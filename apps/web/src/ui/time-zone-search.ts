import type { TimeZone } from "@varia/contracts";
import type { LookupSearch } from "./LookupPicker";

/** A search of the time zones in hand (System/GetTimeZones), by id or name, for a LookupPicker. */
export function searchTimeZones(zones: TimeZone[]): LookupSearch {
  return async (text, startRow, rowLimit) => {
    const words = text.trim().toLowerCase();
    const found = zones.filter((z) => !words || z.name.toLowerCase().includes(words));
    return {
      options: found.slice(startRow - 1, startRow - 1 + rowLimit).map((z) => ({ key: z.id, label: z.name })),
      total: found.length,
    };
  };
}
