import { visibleLength } from "./terminal";

export type Align = "left" | "right";

/**
 * Rows as an aligned text table: each column as wide as its widest cell (colours take no width),
 * two spaces between columns, no trailing spaces.
 */
export function formatTable(rows: readonly (readonly string[])[], align: readonly Align[] = []): string {
  const columns = Math.max(0, ...rows.map((r) => r.length));
  const widths = Array.from({ length: columns }, (_, i) =>
    Math.max(0, ...rows.map((r) => visibleLength(r[i] ?? ""))),
  );
  return rows
    .map((row) =>
      Array.from({ length: columns }, (_, i) => {
        const cell = row[i] ?? "";
        const pad = " ".repeat(widths[i]! - visibleLength(cell));
        return align[i] === "right" ? pad + cell : cell + pad;
      })
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
