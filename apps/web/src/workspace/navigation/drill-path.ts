import { type ViewFilter, viewHref, viewPaths } from "../filters/view-filter";
import { varianceStepLabel } from "../variance-labels";

/**
 * The drill-down path of the dashboards (apps/web/README.md, "Drill-down"): level 1 (the overview),
 * level 2 (the contributors of one variance type and sign), level 3 (one client, service, client's
 * service or salesperson) and level 4 (its invoice lines). The address carries the whole path:
 * varType and sign name the level-2 step, thirdClientID and thirdStockItemID the level-3 subject.
 * Going up removes what the level above does not have, so a crumb's address is the address that
 * the drill went through, and the browser's Back walks the same path.
 */
export type DrillLevel = 1 | 2 | 3 | 4;

const levels: Record<string, DrillLevel> = {
  [viewPaths.level1]: 1,
  [viewPaths.level2]: 2,
  [viewPaths.level3]: 3,
  [viewPaths.level4]: 4,
};

export function drillLevelOf(pathname: string): DrillLevel | null {
  return levels[pathname.replace(/\/+$/, "")] ?? null;
}

/** Level 1: without the level-2 step and the level-3 subject. */
export function level1Href(filter: ViewFilter): string {
  return viewHref(viewPaths.level1, filter, {
    varType: null,
    sign: null,
    thirdClientID: null,
    thirdStockItemID: null,
  });
}

/** Level 2 of the filter's step: without the level-3 subject. */
export function level2Href(filter: ViewFilter): string {
  return viewHref(viewPaths.level2, filter, { thirdClientID: null, thirdStockItemID: null });
}

export function level3Href(filter: ViewFilter): string {
  return viewHref(viewPaths.level3, filter);
}

export function level4Href(filter: ViewFilter): string {
  return viewHref(viewPaths.level4, filter);
}

/** Whether the view names a level-2 step (a type and a sign). */
export const hasStep = (filter: ViewFilter) => Boolean(filter.varType && filter.sign);
/** Whether the view names a level-3 subject: a client, a service, or (alone) a salesperson. */
export const hasSubject = (filter: ViewFilter) =>
  Boolean(filter.thirdClientID || filter.thirdStockItemID || filter.salespersonID);

/** The names of the level-3 subject, as far as they are known. */
export interface SubjectNames {
  client?: string | null;
  service?: string | null;
  salesperson?: string | null;
  /** A subject the address names that the organisation's data has not got (its detail has no name). */
  unknown?: "client" | "service" | "salesperson";
}

/** What the level-3 crumb says: 'Acme Ltd', 'Acme Ltd · Pro plan', 'Pro plan', a salesperson. */
export function subjectLabel(filter: ViewFilter, names: SubjectNames): string {
  const client = filter.thirdClientID ? names.client || `Client #${filter.thirdClientID}` : null;
  const service = filter.thirdStockItemID ? names.service || `Service #${filter.thirdStockItemID}` : null;
  if (client || service) return [client, service].filter(Boolean).join(" · ");
  if (filter.salespersonID)
    return names.salesperson || filter.salesperson || `Salesperson #${filter.salespersonID}`;
  return "Detail";
}

export interface Crumb {
  level: DrillLevel;
  label: string;
  href: string;
}

/**
 * The crumbs of the drill-down path up to the level shown: Level 1 → Price increases → Acme Ltd →
 * Invoice lines. Level 2 is on the path when the view names a step; level 3 when it names a subject.
 */
export function drillCrumbs(level: DrillLevel, filter: ViewFilter, names: SubjectNames = {}): Crumb[] {
  const crumbs: Crumb[] = [{ level: 1, label: "Level 1", href: level1Href(filter) }];
  if (level >= 2 && (level === 2 || hasStep(filter)) && filter.varType && filter.sign)
    crumbs.push({
      level: 2,
      label: varianceStepLabel(filter.varType, filter.sign),
      href: level2Href(filter),
    });
  if (level >= 3 && (level === 3 || hasSubject(filter)))
    crumbs.push({ level: 3, label: subjectLabel(filter, names), href: level3Href(filter) });
  if (level === 4) crumbs.push({ level: 4, label: "Invoice lines", href: level4Href(filter) });
  return crumbs;
}

/** The address one level up from a level (null from level 1): the crumb before the last. */
export function upHref(level: DrillLevel, filter: ViewFilter): string | null {
  const crumbs = drillCrumbs(level, filter);
  return crumbs.length > 1 ? crumbs.at(-2)!.href : null;
}

/**
 * The view with its level-3 subject as ordinary filters (a client, a service): a way out of a detail
 * page to a list (level 2 of that client's price increases) that shows the filter it keeps.
 */
export function subjectAsFilter(filter: ViewFilter): ViewFilter {
  if (!filter.thirdClientID && !filter.thirdStockItemID) return filter;
  return {
    ...filter,
    ...(filter.thirdClientID ? { clientID: filter.thirdClientID, client: null } : {}),
    ...(filter.thirdStockItemID ? { stockItemID: filter.thirdStockItemID, stockItem: null } : {}),
    thirdClientID: null,
    thirdStockItemID: null,
  };
}
