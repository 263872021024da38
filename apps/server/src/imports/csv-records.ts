/**
 * A streaming CSV record scanner for imports: UTF-8 text in, records (arrays of fields) out.
 *
 * It reads what DESIGN 6 promises (a byte order mark, comma or semicolon, quoted fields with
 * embedded delimiters, quotes and newlines, LF or CRLF line ends) and skips records whose fields
 * are all blank, as papaparse's `skipEmptyLines: "greedy"` did. A record without quotes is cut with
 * `indexOf`, which is what makes a million-line file take about a second instead of ten.
 */
export class CsvRecordScanner {
  private readonly record = new CsvRecord();
  private pending = "";
  private started = false;
  /** Read from the header line: `,` unless it has more `;` than `,`. */
  private delimiter: string | undefined;

  /** Scans `text` (following what was pushed before), calling `onRecord` for each whole record. */
  push(text: string, onRecord: (fields: string[]) => void) {
    this.pushRecords(text, (record) => onRecord(record.fields()));
  }

  /** The last record, when the text does not end with a line break. */
  end(onRecord: (fields: string[]) => void) {
    this.endRecords((record) => onRecord(record.fields()));
  }

  /** As `push`, handing over each record as field positions, cut into strings only on demand. */
  pushRecords(text: string, onRecord: (record: CsvRecord) => void) {
    let buffer = this.pending ? this.pending + text : text;
    if (!this.started) {
      if (!buffer) return;
      if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
      this.started = true;
    }
    this.pending = buffer.slice(this.scan(buffer, false, onRecord));
  }

  /** As `end`, handing over the record as field positions. */
  endRecords(onRecord: (record: CsvRecord) => void) {
    const rest = this.pending;
    this.pending = "";
    if (rest) this.scan(rest, true, onRecord);
  }

  /** Emits the complete records of `buffer`; answers where the unfinished rest begins. */
  private scan(buffer: string, final: boolean, onRecord: (record: CsvRecord) => void): number {
    const record = this.record;
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
      // Guessed from the first line that is not blank (the header): a blank line says nothing.
      const delimiter = this.delimiter ?? guessDelimiter(buffer.slice(position, newline));
      if (quote !== -1 && quote < position) quote = buffer.indexOf('"', position);
      if (quote < 0 || quote > newline) {
        const end = newline > position && buffer.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
        cutPlain(record, buffer, position, end, delimiter);
        position = newline + 1;
      } else {
        const quoted = this.scanQuoted(buffer, position, final, delimiter);
        if (!quoted) return position;
        record.setFields(quoted.fields);
        position = quoted.next;
      }
      if (isBlankRecord(record)) continue;
      this.delimiter = delimiter;
      onRecord(record);
    }
    return position;
  }

  /** A record with quotes, read character by character; null when its end is not in `buffer` yet. */
  private scanQuoted(buffer: string, start: number, final: boolean, delimiter: string) {
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

/** Cuts a record without quotes at its delimiters. */
function cutPlain(record: CsvRecord, buffer: string, start: number, end: number, delimiter: string) {
  record.text = buffer;
  record.count = 0;
  let from = start;
  for (;;) {
    const next = buffer.indexOf(delimiter, from);
    if (next < 0 || next >= end) {
      record.add(from, end);
      return;
    }
    record.add(from, next);
    from = next + 1;
  }
}

/** Whether every field is blank (as papaparse's `skipEmptyLines: "greedy"` skips them). */
function isBlankRecord(record: CsvRecord): boolean {
  const { text, starts, ends } = record;
  for (let i = 0; i < record.count; i++) {
    const start = starts[i]!;
    if (start === ends[i]) continue;
    // Printable ASCII settles it; other characters are left to trim.
    const c = text.charCodeAt(start);
    if ((c > 32 && c < 127) || record.field(i).trim().length > 0) return false;
  }
  return true;
}

/**
 * One record as positions of its fields in `text`. The scanner reuses it from record to record, so
 * it is valid only during the call that hands it over; `field` and `fields` cut strings that stay.
 */
export class CsvRecord {
  text = "";
  count = 0;
  starts = new Int32Array(32);
  ends = new Int32Array(32);

  /** A record of these fields. */
  static of(fields: readonly string[]): CsvRecord {
    const record = new CsvRecord();
    record.setFields(fields);
    return record;
  }

  /** Field `i`, or "" when the record has no such field. */
  field(i: number): string {
    return i >= 0 && i < this.count ? this.text.slice(this.starts[i], this.ends[i]) : "";
  }

  fields(): string[] {
    const fields: string[] = [];
    for (let i = 0; i < this.count; i++) fields.push(this.text.slice(this.starts[i], this.ends[i]));
    return fields;
  }

  setFields(fields: readonly string[]) {
    this.text = fields.join("");
    this.count = 0;
    let at = 0;
    for (const field of fields) {
      this.add(at, at + field.length);
      at += field.length;
    }
  }

  add(start: number, end: number) {
    if (this.count === this.starts.length) {
      const starts = new Int32Array(this.count * 2);
      const ends = new Int32Array(this.count * 2);
      starts.set(this.starts);
      ends.set(this.ends);
      this.starts = starts;
      this.ends = ends;
    }
    this.starts[this.count] = start;
    this.ends[this.count] = end;
    this.count++;
  }
}
