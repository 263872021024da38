import { describe, expect, it } from "vitest";
import { moneyColumn, percentColumn, textColumn } from "./columns";
import { allRows, csvCell, csvOf } from "./csv";

describe("grid CSV", () => {
  it("quotes what needs quoting and keeps formulas out", () => {
    expect(csvCell("Acme, Ltd")).toBe('"Acme, Ltd"');
    expect(csvCell('He said "hi"')).toBe('"He said ""hi"""');
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvCell("@cmd")).toBe("'@cmd");
    expect(csvCell("-12.50")).toBe("-12.50");
    expect(csvCell(-3)).toBe("-3");
  });

  it("writes money in major units with 2 decimals under the columns' headers", () => {
    type Row = { name: string; valueCents: number; parts: { Price?: number } };
    const columns = [
      textColumn<Row>("name", "Client"),
      moneyColumn<Row>("valueCents", "MRR"),
      moneyColumn<Row>("price", "Price", { value: (r) => r.parts.Price ?? 0 }),
    ];
    expect(
      csvOf(columns, [
        { name: "Acme", valueCents: 123456, parts: { Price: -50 } },
        { name: "+Evil", valueCents: 5, parts: {} },
      ]),
    ).toBe("Client,MRR,Price\r\nAcme,1234.56,-0.50\r\n'+Evil,0.05,0.00\r\n");
  });

  it("writes a percent in percent with 2 decimals, as the screen shows it", () => {
    type Row = { name: string; share: number | null };
    const columns = [textColumn<Row>("name", "Client"), percentColumn<Row>("share", "Share of MRR")];
    expect(
      csvOf(columns, [
        { name: "Acme", share: 0.0768948697 },
        { name: "Globex", share: -1 },
        { name: "Initech", share: null },
      ]),
    ).toBe("Client,Share of MRR\r\nAcme,7.69\r\nGlobex,-100.00\r\nInitech,\r\n");
  });

  it("reads every page of a server source", async () => {
    const all = Array.from({ length: 2345 }, (_, i) => i);
    const asked: number[] = [];
    const rows = await allRows(async ({ startRow, rowLimit }) => {
      asked.push(startRow);
      return { rows: all.slice(startRow, startRow + rowLimit), rowCount: all.length };
    });
    expect(rows).toEqual(all);
    expect(asked).toEqual([0, 1000, 2000]);
  });
});
