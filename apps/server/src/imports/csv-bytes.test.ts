import fc from "fast-check";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { CsvByteScanner } from "./csv-bytes";

/** The records of a text as the scanner reads them, its UTF-8 cut into chunks at byte offsets. */
function scanBytes(text: string, cuts: number[]): string[][] {
  const bytes = Buffer.from(text, "utf8");
  const scanner = new CsvByteScanner();
  const records: string[][] = [];
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    scanner.push(bytes.subarray(from, cut), (r) => records.push(r.fields()));
    from = cut;
  }
  scanner.push(bytes.subarray(from), (r) => records.push(r.fields()));
  scanner.end((r) => records.push(r.fields()));
  return records;
}

const quote = (field: string, delimiter: string) =>
  /["\r\n]/.test(field) || field.includes(delimiter) || field.startsWith(" ")
    ? `"${field.replaceAll('"', '""')}"`
    : field;

describe("CsvByteScanner", () => {
  it("reads what papaparse reads, however the bytes are cut into chunks", () => {
    const field = fc.stringMatching(/^[a-z0-9 ,;"\r\n.é-]{0,8}$/);
    fc.assert(
      fc.property(
        fc.constantFrom(",", ";"),
        fc.constantFrom("\n", "\r\n"),
        fc.boolean(),
        fc.integer({ min: 2, max: 5 }),
        fc.array(fc.array(field, { minLength: 5, maxLength: 5 }), { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.boolean(),
        (delimiter, newline, bom, width, rows, cutSeeds, trailingNewline) => {
          const header = Array.from({ length: width }, (_, i) => `Col${i}`).join(delimiter);
          const body = rows.map((r) =>
            r
              .slice(0, width)
              .map((f) => quote(f, delimiter))
              .join(delimiter),
          );
          const text = `${bom ? "\uFEFF" : ""}${[header, ...body].join(newline)}${trailingNewline ? newline : ""}`;
          const expected = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), {
            delimiter,
            newline,
            skipEmptyLines: "greedy",
          }).data;
          const byteLength = Buffer.byteLength(text, "utf8");
          expect(
            scanBytes(
              text,
              cutSeeds.map((seed) => seed % (byteLength + 1)),
            ),
          ).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("guesses a semicolon from the header and keeps quoted semicolons, commas and newlines", () => {
    const text = 'A;B;C\r\n1;"x;y";"two\nlines"\r\n2;"say ""hi""";3,5\r\n';
    const expected = [
      ["A", "B", "C"],
      ["1", "x;y", "two\nlines"],
      ["2", 'say "hi"', "3,5"],
    ];
    expect(scanBytes(text, [7, 15])).toEqual(expected);
  });

  it("guesses the delimiter from the header, not from blank lines before it", () => {
    const text = "\r\n  \nA;B\n1,5;2\n";
    const expected = [
      ["A", "B"],
      ["1,5", "2"],
    ];
    expect(scanBytes(text, [1])).toEqual(expected);
  });

  it("skips blank records and reads a last record without a line break", () => {
    const expected = [
      ["A", "B"],
      ["1", "2"],
    ];
    expect(scanBytes("\uFEFFA,B\n\n , \n1,2", [1, 2])).toEqual(expected);
  });
});
