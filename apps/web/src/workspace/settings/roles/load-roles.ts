import { lookupRoleList } from "@varia/contracts";
import { api } from "../../../api";

/**
 * The organisation's roles by name through Lookup/GetRoleList (startRow 1, rowLimit 100: docs/api.md#the-calls-by-area),
 * asked afresh each time (the lookup is cached otherwise, and a role may have just been added).
 */
export async function loadRoleNames(): Promise<{ roleID: string; name: string }[]> {
  const page = await api.call(lookupRoleList, { body: { startRow: 1, rowLimit: 100 } }, { cache: false });
  return page.rows;
}
