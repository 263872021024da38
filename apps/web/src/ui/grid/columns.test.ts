import { describe, expect, it } from "vitest";
import { columnWidths, moneyColumn, textColumn } from "./columns";

describe("column widths, as AG Grid sizes them (the first page's table)", () => {
  type Row = Record<string, unknown>;
  const columns = [
    textColumn<Row>("client", "Client", { minWidth: 200 }),
    textColumn<Row>("service", "Service", { minWidth: 180 }),
    textColumn<Row>("status", "Status", { width: 112, flex: 0 }),
    moneyColumn<Row>("from", "MRR from"),
    moneyColumn<Row>("to", "MRR to"),
  ];

  it("shares what the fixed columns leave between the flex columns by their flex", () => {
    // Fixed: the status column at its minimum of 140 (not its width of 112), two of 140: 420.
    expect(columnWidths(columns, 1020)).toEqual([300, 300, 140, 140, 140]);
  });

  it("gives a flex column its minimum when its share is smaller, and the others the rest", () => {
    expect(columnWidths(columns, 820)).toEqual([200, 200, 140, 140, 140]);
    expect(columnWidths(columns, 790)).toEqual([200, 180, 140, 140, 140]);
  });

  it("keeps every minimum in a narrow box: the table is then wider than the box", () => {
    const widths = columnWidths(columns, 300);
    expect(widths).toEqual([200, 180, 140, 140, 140]);
    expect(widths.reduce((a, b) => a + b, 0)).toBeGreaterThan(300);
  });

  it("gives a column with neither width nor flex AG Grid's default of 200", () => {
    expect(columnWidths([{ field: "x", header: "X", kind: "text" }], 1000)).toEqual([200]);
  });
});
