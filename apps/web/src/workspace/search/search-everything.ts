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

/** The key of a group's line that says how many more it found than it shows (not a result). */
export const moreKey = (prefix: string) => `${prefix}-more`;

/**
 * Screens (the user's menu, matched here) and, for a user who may open the dashboards they lead to
 * (`withData`), clients, services and salespeople (the lookup calls, five each). An option's key
 * says its group and what it opens: `client:12`, `screen:/path`. A group that found more than five
 * ends with a line saying how many more (`moreKey`), so that a person looking for one not shown
 * knows to type more of its name rather than think it missing.
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
  const tag = (prefix: string, found: { options: DropdownOption[]; total: number }, noun: string) => {
    const options = found.options.map((o) => ({ ...o, key: `${prefix}:${o.key}:${o.label}` }));
    const more = found.total - options.length;
    if (more > 0)
      options.push({
        key: moreKey(prefix),
        label: `${more.toLocaleString("en-US")} more ${noun}: type more of the name`,
      });
    return options;
  };
  const [clients, items, salespeople] = await Promise.all([
    searchClients(text, 1, perGroup),
    searchItems(text, 1, perGroup),
    searchSalespeople(text, 1, perGroup),
  ]);
  const options = [
    ...screenOptions,
    ...tag("client", clients, "clients"),
    ...tag("item", items, "services"),
    ...tag("salesperson", salespeople, "salespeople"),
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
