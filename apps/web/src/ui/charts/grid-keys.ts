/** A cell of a table by its row and column, the header row being row 0. */
export interface CellPosition {
  row: number;
  col: number;
}

/**
 * Where a key moves the focus in a grid of `rows` × `cols` cells, as the WAI-ARIA Authoring
 * Practices' data grid has it: the arrows by one cell, Home and End to the row's first and last,
 * Control+Home and Control+End to the grid's first and last, never wrapping round. `null` when the
 * key is not one of these (the browser keeps it: Tab leaves the grid, Enter follows a link).
 */
export function gridKeyMove(
  key: string,
  ctrl: boolean,
  at: CellPosition,
  rows: number,
  cols: number,
): CellPosition | null {
  const clamp = (row: number, col: number) => ({
    row: Math.max(0, Math.min(rows - 1, row)),
    col: Math.max(0, Math.min(cols - 1, col)),
  });
  switch (key) {
    case "ArrowRight":
      return clamp(at.row, at.col + 1);
    case "ArrowLeft":
      return clamp(at.row, at.col - 1);
    case "ArrowDown":
      return clamp(at.row + 1, at.col);
    case "ArrowUp":
      return clamp(at.row - 1, at.col);
    case "Home":
      return ctrl ? clamp(0, 0) : clamp(at.row, 0);
    case "End":
      return ctrl ? clamp(rows - 1, cols - 1) : clamp(at.row, cols - 1);
    default:
      return null;
  }
}
