/** The height of a settings list's grid: its rows (3 to 12 of them) with the header and pager, no empty page below. */
export function listHeight(rowCount: number): number {
  return 40 + Math.max(3, Math.min(rowCount, 12)) * 42 + 56;
}
