/** The bytes `binaryFileKind` looks at. */
export const fileKindHeadBytes = 8;

/**
 * What a file that is not text is, from its first bytes (docs/import.md, "File format"): a common
 * mistake is a workbook renamed to .csv, which would otherwise be reported as every required column
 * missing. Answers null for anything that may be text: a NUL byte in a cell of a CSV is that cell's
 * mistake, listed with the others (docs/import.md, "Validation"), not the file's.
 */
export function binaryFileKind(head: Uint8Array): string | null {
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  if (starts(0x50, 0x4b, 0x03, 0x04))
    return "a spreadsheet workbook or other zip file (such as .xlsx or .ods)";
  if (starts(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)) return "an Excel 97-2003 workbook (.xls)";
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return "a PDF document";
  if (starts(0xff, 0xfe) || starts(0xfe, 0xff)) return "text in UTF-16";
  if (starts(0x1f, 0x8b)) return "a gzip file";
  return null;
}
