import type { DropdownLookupOutput, DropdownOption } from "@varia/machines";
import { searchClients, searchItems, searchSalespeople } from "../filters/lookups";
import { type ViewFilter, viewHref, viewPaths } from "../filters/view-filter";

/** The groups of the search's results, in the order shown. */
export const searchGroups = [
  { prefix: "screen", title: "Screens" },
  { prefix: "client", title: "Clients" },
  { prefix: "item", title: "Services" },
  { prefix: "salesperson", title: "Salespeople" },
] as const;

const perGroup = 5;

/**
 * Screens (the user's menu, matched here) and, for a user who may open the dashboards they lead to
 * (`withData`), clients, services and salespeople (the lookup calls, five each). An option's key
 * says its group and what it opens: `client:12`, `screen:/path`.
 */
export async function searchEverything(
  text: string,
  screens: { title: string; path: string }[],
  withData = true,
): Promise<DropdownLookupOutput> {
  const term = text.trim().toLowerCase();
  const screenOptions: DropdownOption[] = screens
    .filter((s) => !term || s.title.toLowerCase().includes(term))
    .map((s) => ({ key: `screen:${s.path}`, label: s.title }));
  if (!term || !withData) return { options: screenOptions, total: screenOptions.length };
  const tag = (prefix: string, options: DropdownOption[]) =>
    options.map((o) => ({ ...o, key: `${prefix}:${o.key}:${o.label}` }));
  const [clients, items, salespeople] = await Promise.all([
    searchClients(text, 1, perGroup),
    searchItems(text, 1, perGroup),
    searchSalespeople(text, 1, perGroup),
  ]);
  const options = [
    ...screenOptions,
    ...tag("client", clients.options),
    ...tag("item", items.options),
    ...tag("salesperson", salespeople.options),
  ];
  return { options, total: options.length };
}

/**
 * Where a result leads: a screen to itself, a client or a service to its level-3 view, a salesperson
 * to level 1 filtered to their clients; all with the current view's months.
 */
export function searchResultHref(key: string, filter: ViewFilter): string {
  const [prefix, id = "", ...rest] = key.split(":");
  const label = rest.join(":");
  switch (prefix) {
    case "screen":
      return key.slice("screen:".length);
    case "client":
      return viewHref(viewPaths.level3, filter, { thirdClientID: id, thirdStockItemID: null });
    case "item":
      return viewHref(viewPaths.level3, filter, { thirdStockItemID: id, thirdClientID: null });
    case "salesperson":
      return viewHref(viewPaths.level1, filter, { salespersonID: id, salesperson: label });
    default:
      return "/";
  }
}
