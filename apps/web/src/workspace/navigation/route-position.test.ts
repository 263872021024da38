import { describe, expect, it } from "vitest";
import { isSameLocation, routePosition, transitionDirection } from "./route-position";

describe("page transitions", () => {
  it("place each route by its section (x) and depth (y)", () => {
    expect(routePosition("/variance/dashboard/stockTypeOverview")).toEqual({ x: 0, y: 0 });
    expect(routePosition("/variance/dashboard/invoice")).toEqual({ x: 0, y: 3 });
    expect(routePosition("/variance/reports/types")).toEqual({ x: 2, y: 0 });
    expect(routePosition("/variance/reports/types/forecast")).toEqual({ x: 2, y: 1 });
    expect(routePosition("/variance/settings/user/12")).toEqual({ x: 3, y: 2 });
  });

  it("come in from the side of the section and from the depth of the level", () => {
    const level1 = "/variance/dashboard/stockTypeOverview?dateTo=2026-10";
    const level2 = "/variance/dashboard/positiveOrNegative?varType=Price&sign=Positive";
    expect(transitionDirection(level1, level2)).toBe("up");
    expect(transitionDirection(level2, level1)).toBe("down");
    expect(transitionDirection(level1, "/variance/forecast")).toBe("left");
    expect(transitionDirection("/variance/reports/types", "/variance/forecast")).toBe("right");
    // The same page with another query (a type switched in place) does not move.
    expect(transitionDirection(level2, "/variance/dashboard/positiveOrNegative?varType=Client")).toBe("none");
  });

  it("recognise the location shown now, whatever the order of its parameters", () => {
    const here = { pathname: "/variance/dashboard/specific", search: "?a=1&b=2" };
    expect(isSameLocation(here, "/variance/dashboard/specific?a=1&b=2")).toBe(true);
    expect(isSameLocation(here, "/variance/dashboard/specific?b=2&a=1")).toBe(true);
    expect(isSameLocation(here, "/variance/dashboard/specific?a=1")).toBe(false);
  });
});
