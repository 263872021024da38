import { describe, expect, it } from "vitest";
import { gridKeyMove } from "./grid-keys";

describe("gridKeyMove", () => {
  const at = { row: 2, col: 1 };
  it("moves one cell with the arrows", () => {
    expect(gridKeyMove("ArrowRight", false, at, 5, 3)).toEqual({ row: 2, col: 2 });
    expect(gridKeyMove("ArrowLeft", false, at, 5, 3)).toEqual({ row: 2, col: 0 });
    expect(gridKeyMove("ArrowDown", false, at, 5, 3)).toEqual({ row: 3, col: 1 });
    expect(gridKeyMove("ArrowUp", false, at, 5, 3)).toEqual({ row: 1, col: 1 });
  });
  it("stops at the edges instead of wrapping round", () => {
    expect(gridKeyMove("ArrowRight", false, { row: 0, col: 2 }, 5, 3)).toEqual({ row: 0, col: 2 });
    expect(gridKeyMove("ArrowUp", false, { row: 0, col: 2 }, 5, 3)).toEqual({ row: 0, col: 2 });
    expect(gridKeyMove("ArrowDown", false, { row: 4, col: 0 }, 5, 3)).toEqual({ row: 4, col: 0 });
    expect(gridKeyMove("ArrowLeft", false, { row: 4, col: 0 }, 5, 3)).toEqual({ row: 4, col: 0 });
  });
  it("goes to the row's ends with Home and End, the grid's with Control", () => {
    expect(gridKeyMove("Home", false, at, 5, 3)).toEqual({ row: 2, col: 0 });
    expect(gridKeyMove("End", false, at, 5, 3)).toEqual({ row: 2, col: 2 });
    expect(gridKeyMove("Home", true, at, 5, 3)).toEqual({ row: 0, col: 0 });
    expect(gridKeyMove("End", true, at, 5, 3)).toEqual({ row: 4, col: 2 });
  });
  it("leaves Tab, Enter and the rest to the browser", () => {
    for (const key of ["Tab", "Enter", " ", "a", "PageDown"])
      expect(gridKeyMove(key, false, at, 5, 3)).toBeNull();
  });
});
