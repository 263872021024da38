import fc from "fast-check";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { CsvByteScanner } from "./csv-bytes";
import { CsvRecordScanner } from "./csv-records";

function scanAll(text: string, cuts: number[]): string[][] {
  const scanner = new CsvRecordScanner();
  const records: string[][] = [];
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    scanner.push(text.slice(from, cut), (r) => records.push(r));
    from = cut;
  }
  scanner.push(text.slice(from), (r) => records.push(r));
  scanner.end((r) => records.push(r));
  return records;
}

/** As `scanAll`, by the import's scanner of bytes, the text's UTF-8 cut at byte offsets. */
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

describe("CsvRecordScanner and CsvByteScanner", () => {
  it("read what papaparse reads, however the text or its bytes are cut into chunks", () => {
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
          const cuts = cutSeeds.map((seed) => seed % (text.length + 1));
          const expected = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), {
            delimiter,
            newline,
            skipEmptyLines: "greedy",
          }).data;
          expect(scanAll(text, cuts)).toEqual(expected);
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

  it("guess a semicolon from the header and keep quoted semicolons, commas and newlines", () => {
    const text = 'A;B;C\r\n1;"x;y";"two\nlines"\r\n2;"say ""hi""";3,5\r\n';
    const expected = [
      ["A", "B", "C"],
      ["1", "x;y", "two\nlines"],
      ["2", 'say "hi"', "3,5"],
    ];
    expect(scanAll(text, [7, 15])).toEqual(expected);
    expect(scanBytes(text, [7, 15])).toEqual(expected);
  });

  it("guess the delimiter from the header, not from blank lines before it", () => {
    const text = "\r\n  \nA;B\n1,5;2\n";
    const expected = [
      ["A", "B"],
      ["1,5", "2"],
    ];
    expect(scanAll(text, [])).toEqual(expected);
    expect(scanBytes(text, [1])).toEqual(expected);
  });

  it("skip blank records and read a last record without a line break", () => {
    const expected = [
      ["A", "B"],
      ["1", "2"],
    ];
    expect(scanAll("A,B\n\n , \n1,2", [])).toEqual(expected);
    expect(scanBytes("\uFEFFA,B\n\n , \n1,2", [1, 2])).toEqual(expected);
  });
});
