/**
 * A CSV cell of text a spreadsheet opens safely: one starting with = + - @ (or a tab or carriage
 * return) would run as a formula, so it gets a leading apostrophe; quotes, commas and line breaks
 * are quoted. Numbers the server formats itself are written as they are.
 */
export function csvText(value: string | null | undefined): string {
  let text = value ?? "";
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
