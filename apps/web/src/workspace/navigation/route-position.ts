/**
 * Where a route sits, for the direction of page transitions: x is its section in the side menu's
 * order (dashboards, forecast, reports, settings, integration), y its depth within the section
 * (level 1 to 4, a report list and a report, a settings list and an item). A move to another section
 * slides sideways; a move within one slides up or down.
 */
export interface RoutePosition {
  x: number;
  y: number;
}

const sections: [prefix: string, x: number, depths: [pattern: RegExp, y: number][]][] = [
  [
    "/variance/dashboard",
    0,
    [
      [/^\/variance\/dashboard\/stockTypeOverview$/, 0],
      [/^\/variance\/dashboard\/positiveOrNegative$/, 1],
      [/^\/variance\/dashboard\/specific$/, 2],
      [/^\/variance\/dashboard\/invoice$/, 3],
    ],
  ],
  ["/variance/forecast", 1, []],
  ["/variance/reports", 2, [[/^\/variance\/reports\/types\/[^/]+$/, 1]]],
  [
    "/variance/settings",
    3,
    [
      [/^\/variance\/settings\/menu$/, 0],
      [/^\/variance\/settings\/[^/]+$/, 1],
      [/^\/variance\/settings\/[^/]+\/[^/]+$/, 2],
    ],
  ],
  ["/integration", 4, []],
];

export function routePosition(pathname: string): RoutePosition {
  const path = pathname.replace(/\/+$/, "") || "/";
  for (const [prefix, x, depths] of sections) {
    if (path !== prefix && !path.startsWith(`${prefix}/`)) continue;
    return { x, y: depths.find(([pattern]) => pattern.test(path))?.[1] ?? 0 };
  }
  return { x: 0, y: 0 };
}

export type TransitionDirection = "none" | "left" | "right" | "up" | "down";

/**
 * The direction a page comes in from when moving between two addresses: from the right when moving
 * to a section further down the menu, from below when going deeper; none for the same location (it
 * is ignored) or a change of the query alone (the same page, in place).
 */
export function transitionDirection(from: string, to: string): TransitionDirection {
  const [fromPath] = from.split("?");
  const [toPath] = to.split("?");
  if (fromPath === toPath) return "none";
  const a = routePosition(fromPath!);
  const b = routePosition(toPath!);
  if (b.x !== a.x) return b.x > a.x ? "left" : "right";
  if (b.y !== a.y) return b.y > a.y ? "up" : "down";
  return "none";
}

/** Whether an address is the one shown now (navigating there is ignored). */
export function isSameLocation(current: { pathname: string; search: string }, href: string): boolean {
  const url = new URL(href, "http://x");
  const normalise = (search: string) => {
    const params = new URLSearchParams(search);
    params.sort();
    return params.toString();
  };
  return url.pathname === current.pathname && normalise(url.search) === normalise(current.search);
}
