/**
 * A streaming CSV record scanner for imports: UTF-8 text in, records (arrays of fields) out.
 *
 * It reads what DESIGN 6 promises (a byte order mark, comma or semicolon, quoted fields with
 * embedded delimiters, quotes and newlines, LF or CRLF line ends) and skips records whose fields
 * are all blank, as papaparse's `skipEmptyLines: "greedy"` did. A record without quotes is cut with
 * `indexOf`, which is what makes a million-line file take about a second instead of ten.
 */
export class CsvRecordScanner {
  private pending = "";
  private started = false;
  /** Read from the header line: `,` unless it has more `;` than `,`. */
  private delimiter: string | undefined;

  /** Scans `text` (following what was pushed before), calling `onRecord` for each whole record. */
  push(text: string, onRecord: (fields: string[]) => void) {
    let buffer = this.pending ? this.pending + text : text;
    if (!this.started) {
      if (!buffer) return;
      if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
      this.started = true;
    }
    this.pending = buffer.slice(this.scan(buffer, false, onRecord));
  }

  /** The last record, when the text does not end with a line break. */
  end(onRecord: (fields: string[]) => void) {
    const rest = this.pending;
    this.pending = "";
    if (rest) this.scan(rest, true, onRecord);
  }

  /** Emits the complete records of `buffer`; answers where the unfinished rest begins. */
  private scan(buffer: string, final: boolean, onRecord: (fields: string[]) => void): number {
    let position = 0;
    const length = buffer.length;
    // The next quote at or after `position`, found once per quote rather than once per record.
    let quote = -2;
    while (position < length) {
      let newline = buffer.indexOf("\n", position);
      if (newline < 0) {
        if (!final) return position;
        newline = length;
      }
      this.delimiter ??= guessDelimiter(buffer.slice(position, newline));
      if (quote !== -1 && quote < position) quote = buffer.indexOf('"', position);
      if (quote < 0 || quote > newline) {
        const end = newline > position && buffer.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
        emit(splitPlain(buffer, position, end, this.delimiter), onRecord);
        position = newline + 1;
        continue;
      }
      const quoted = this.scanQuoted(buffer, position, final);
      if (!quoted) return position;
      emit(quoted.fields, onRecord);
      position = quoted.next;
    }
    return position;
  }

  /** A record with quotes, read character by character; null when its end is not in `buffer` yet. */
  private scanQuoted(buffer: string, start: number, final: boolean) {
    const delimiter = this.delimiter!;
    const fields: string[] = [];
    const length = buffer.length;
    let field = "";
    let i = start;
    for (;;) {
      if (i < length && buffer[i] === '"' && field === "") {
        // A quoted field: up to the quote that is not doubled.
        let j = i + 1;
        for (;;) {
          const close = buffer.indexOf('"', j);
          if (close < 0) {
            if (!final) return null;
            field += buffer.slice(j);
            fields.push(field);
            return { fields, next: length };
          }
          if (buffer[close + 1] === '"') {
            field += buffer.slice(j, close + 1);
            j = close + 2;
            continue;
          }
          if (close + 1 >= length && !final) return null;
          field += buffer.slice(j, close);
          i = close + 1;
          break;
        }
      }
      // Plain text up to the next delimiter or line end (also what follows a closing quote).
      let k = i;
      while (k < length) {
        const c = buffer[k];
        if (c === delimiter || c === "\n") break;
        k++;
      }
      if (k >= length && !final) return null;
      let text = buffer.slice(i, k);
      if (k < length && buffer[k] === "\n" && text.endsWith("\r")) text = text.slice(0, -1);
      else if (k >= length && text.endsWith("\r")) text = text.slice(0, -1);
      field += text;
      fields.push(field);
      field = "";
      if (k >= length) return { fields, next: length };
      if (buffer[k] === "\n") return { fields, next: k + 1 };
      i = k + 1;
    }
  }
}

function guessDelimiter(line: string): string {
  let commas = 0;
  let semicolons = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 44) commas++;
    else if (c === 59) semicolons++;
  }
  return semicolons > commas ? ";" : ",";
}

function splitPlain(buffer: string, start: number, end: number, delimiter: string): string[] {
  const fields: string[] = [];
  let from = start;
  for (;;) {
    const next = buffer.indexOf(delimiter, from);
    if (next < 0 || next >= end) {
      fields.push(buffer.slice(from, end));
      return fields;
    }
    fields.push(buffer.slice(from, next));
    from = next + 1;
  }
}

function emit(fields: string[], onRecord: (fields: string[]) => void) {
  for (const field of fields) {
    if (!isBlank(field)) {
      onRecord(fields);
      return;
    }
  }
}

function isBlank(text: string): boolean {
  return text.length === 0 || text.trim().length === 0;
}
