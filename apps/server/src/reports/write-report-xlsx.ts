import type { ReportColumn, ReportRow } from "@varia/contracts";
import { strToU8, zipSync } from "fflate";

/**
 * A minimal SpreadsheetML workbook (one sheet) that Excel and LibreOffice open: a bold header row,
 * money as numbers with the organisation's currency format, percents as numbers with 0.00%, months
 * as dates (the month's first day) written 'Nov 2025', a number of two `decimals` under 0.00 (the
 * quick ratio), text as inline strings (never formulas, so a client named "=cmd" stays text), and
 * when the report has totals a bold row of them after the last row, 'Total' in its first column (as
 * on screen). The header row is frozen and carries a filter over the rows (the totals row outside it).
 */

/** Whether XML 1.0 can carry a character: not the C0 controls other than tab, line feed and return. */
const xmlAllowed = (ch: string) => {
  const code = ch.charCodeAt(0);
  return (
    (code >= 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) && code !== 0xfffe && code !== 0xffff
  );
};

const xmlEscape = (text: string) =>
  [...text]
    .filter(xmlAllowed)
    .join("")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");

/** A1-style column letters: 0 -> A, 25 -> Z, 26 -> AA. */
export function columnLetters(index: number): string {
  let n = index + 1;
  let letters = "";
  while (n > 0) {
    const rem = (n - 1) % 26;
    letters = String.fromCharCode(65 + rem) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

const currencySymbols: Record<string, string> = {
  USD: "$",
  EUR: "€",
  GBP: "£",
  AUD: "A$",
  NZD: "NZ$",
  CAD: "CA$",
  JPY: "¥",
  INR: "₹",
  ZAR: "R",
  CHF: "CHF",
};

/** The Excel number format of money in a currency: `[$$]#,##0.00` for USD. */
export function currencyFormat(currencyCode: string): string {
  const symbol = currencySymbols[currencyCode.toUpperCase()] ?? currencyCode.toUpperCase();
  return `[$${symbol}]#,##0.00;-[$${symbol}]#,##0.00`;
}

/** Style indexes of styles.xml's cellXfs. */
const style = { header: 1, money: 2, percent: 3, number: 4, month: 8, twoDecimals: 10 } as const;
/** The same in bold, for the totals row. */
const boldStyle: Record<keyof typeof style, number> = {
  header: 1,
  money: 5,
  percent: 6,
  number: 7,
  month: 9,
  twoDecimals: 11,
};

/** A month 'YYYY-MM' as Excel's date serial of its first day (days since 1899-12-30); null if not one. */
export function monthSerial(value: string): number | null {
  const match = /^(\d{4})-(\d{2})$/.exec(value);
  if (!match) return null;
  const month = Number(match[2]);
  if (month < 1 || month > 12) return null;
  return Math.round((Date.UTC(Number(match[1]), month - 1, 1) - Date.UTC(1899, 11, 30)) / 86_400_000);
}

function stylesXml(currencyCode: string): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">
<numFmts count="2"><numFmt numFmtId="164" formatCode="${xmlEscape(currencyFormat(currencyCode))}"/><numFmt numFmtId="165" formatCode="mmm yyyy"/></numFmts>
<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>
<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>
<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>
<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>
<cellXfs count="12">
<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>
<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>
<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>
<xf numFmtId="10" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>
<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>
<xf numFmtId="164" fontId="1" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" applyFont="1"/>
<xf numFmtId="10" fontId="1" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" applyFont="1"/>
<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>
<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>
<xf numFmtId="165" fontId="1" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" applyFont="1"/>
<xf numFmtId="2" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>
<xf numFmtId="2" fontId="1" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" applyFont="1"/>
</cellXfs>
<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>
</styleSheet>`;
}

function cellXml(ref: string, column: ReportColumn, value: unknown, total = false): string {
  if (value === null || value === undefined) return "";
  const styles = total ? boldStyle : style;
  const serial = column.kind === "month" && typeof value === "string" ? monthSerial(value) : null;
  if (serial !== null) return `<c r="${ref}" s="${styles.month}"><v>${serial}</v></c>`;
  if (typeof value === "number" && Number.isFinite(value)) {
    const s =
      column.kind === "money"
        ? styles.money
        : column.kind === "percent"
          ? styles.percent
          : column.decimals === 2
            ? styles.twoDecimals
            : styles.number;
    return `<c r="${ref}" s="${s}"><v>${value}</v></c>`;
  }
  const s = total ? ` s="${style.header}"` : "";
  return `<c r="${ref}" t="inlineStr"${s}><is><t xml:space="preserve">${xmlEscape(String(value))}</t></is></c>`;
}

function sheetXml(columns: ReportColumn[], rows: ReportRow[], totals: ReportRow): string {
  const parts: string[] = [];
  parts.push(
    `<row r="1">${columns
      .map(
        (c, i) =>
          `<c r="${columnLetters(i)}1" t="inlineStr" s="${style.header}"><is><t>${xmlEscape(c.header)}</t></is></c>`,
      )
      .join("")}</row>`,
  );
  rows.forEach((row, r) => {
    const n = r + 2;
    parts.push(
      `<row r="${n}">${columns.map((c, i) => cellXml(`${columnLetters(i)}${n}`, c, row[c.field])).join("")}</row>`,
    );
  });
  const totalled = columns.filter((c) => totals[c.field] !== undefined && totals[c.field] !== null);
  if (rows.length && totalled.length) {
    const n = rows.length + 2;
    // 'Total' goes in the first column unless that column has a total of its own.
    const cells = columns.map((c, i) => {
      const value = totals[c.field] ?? (i === 0 ? "Total" : null);
      return cellXml(`${columnLetters(i)}${n}`, c, value, true);
    });
    parts.push(`<row r="${n}">${cells.join("")}</row>`);
  }
  // A filter on the header over the rows, not the totals row after them, so that filtering by a
  // salesperson or a status never hides the totals or sorts them among the rows.
  const filter =
    rows.length && columns.length
      ? `<autoFilter ref="A1:${columnLetters(columns.length - 1)}${rows.length + 1}"/>`
      : "";
  const cols = columns
    .map(
      (c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.kind === "text" ? 24 : 16}" customWidth="1"/>`,
    )
    .join("");
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews><cols>${cols}</cols><sheetData>${parts.join("")}</sheetData>${filter}</worksheet>`;
}

/** A sheet name Excel accepts: at most 31 characters, none of []:*?/\ . */
export function sheetName(name: string): string {
  return name.replace(/[[\]:*?/\\]/g, " ").slice(0, 31) || "Report";
}

export function reportXlsx(options: {
  sheet: string;
  columns: ReportColumn[];
  rows: ReportRow[];
  /** The report's totals by field: a bold row after the rows; none when empty. */
  totals?: ReportRow;
  currencyCode: string;
}): Uint8Array {
  const files = {
    "[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
    "_rels/.rels": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    "xl/workbook.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="${xmlEscape(sheetName(options.sheet))}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    "xl/_rels/workbook.xml.rels": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
    "xl/styles.xml": stylesXml(options.currencyCode),
    "xl/worksheets/sheet1.xml": sheetXml(options.columns, options.rows, options.totals ?? {}),
  };
  return zipSync(Object.fromEntries(Object.entries(files).map(([path, text]) => [path, strToU8(text)])), {
    level: 6,
  });
}
