/**
 * The import's CSV record scanner, on bytes: UTF-8 in, records as field positions in the bytes out.
 * It reads what docs/import.md ("File format") promises (a byte order mark, comma or semicolon, quoted fields with
 * embedded delimiters, quotes and newlines, LF or CRLF line ends; records whose fields are all
 * blank skipped, as papaparse's `skipEmptyLines: "greedy"` skips them), without decoding the file
 * into text: a field becomes a string only when somebody asks for it, and most never do (codes are
 * looked up by their bytes, numbers read from them). The delimiters, quotes and line ends are
 * ASCII, which never occurs inside a multi-byte UTF-8 character, so cutting bytes cuts characters
 * whole.
 */
export class CsvByteScanner {
  private readonly record = new ByteRecord();
  private readonly unquoted = new Unquoted();
  private pending: Buffer | null = null;
  private started = false;
  /** Read from the header line: `,` unless it has more `;` than `,`. */
  private delimiter = 0;
  /** Blank records skipped since the last record handed over. */
  private blanks = 0;

  /** Scans `chunk` (following what was pushed before), calling `onRecord` for each whole record. */
  push(chunk: Uint8Array, onRecord: (record: ByteRecord) => void) {
    const bytes = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let buffer = this.pending ? Buffer.concat([this.pending, bytes]) : bytes;
    if (!this.started) {
      // A byte order mark may come in pieces.
      if (buffer.length < 3 && bom.subarray(0, buffer.length).equals(buffer)) {
        this.pending = buffer.length ? buffer : null;
        return;
      }
      if (buffer.subarray(0, 3).equals(bom)) buffer = buffer.subarray(3);
      this.started = true;
    }
    const used = this.scan(buffer, false, onRecord);
    this.pending = used < buffer.length ? buffer.subarray(used) : null;
  }

  /** The last record, when the bytes do not end with a line break. */
  end(onRecord: (record: ByteRecord) => void) {
    const rest = this.pending;
    this.pending = null;
    // Not started: all that came was part of a byte order mark.
    if (rest && this.started) this.scan(rest, true, onRecord);
  }

  /** Emits the complete records of `buffer`; answers where the unfinished rest begins. */
  private scan(buffer: Buffer, final: boolean, onRecord: (record: ByteRecord) => void): number {
    const record = this.record;
    let position = 0;
    const length = buffer.length;
    // The next quote at or after `position`, found once per quote rather than once per record.
    let quote = -2;
    while (position < length) {
      let newline = buffer.indexOf(10, position);
      if (newline < 0) {
        if (!final) return position;
        newline = length;
      }
      // Guessed from the first line that is not blank (the header): a blank line says nothing.
      const delimiter = this.delimiter || guessDelimiter(buffer, position, newline);
      if (quote !== -1 && quote < position) quote = buffer.indexOf(34, position);
      if (quote < 0 || quote > newline) {
        const end = newline > position && buffer[newline - 1] === 13 ? newline - 1 : newline;
        cutPlain(record, buffer, position, end, delimiter);
        position = newline + 1;
      } else {
        const next = scanQuoted(buffer, position, final, delimiter, record, this.unquoted);
        if (next < 0) return position;
        position = next;
      }
      if (isBlankRecord(record)) {
        this.blanks++;
        continue;
      }
      this.delimiter = delimiter;
      record.blankBefore = this.blanks;
      this.blanks = 0;
      onRecord(record);
    }
    return position;
  }
}

const bom = Buffer.from([0xef, 0xbb, 0xbf]);
const empty = Buffer.alloc(0);

/**
 * The unquoted bytes of records with quotes: each field's bytes copied here one after the other
 * (a doubled quote once), for `record` to point into. Reused from record to record.
 */
class Unquoted {
  bytes = Buffer.allocUnsafe(1 << 12);
  length = 0;

  copy(from: Buffer, start: number, end: number) {
    const needed = this.length + end - start;
    if (needed > this.bytes.length) {
      const bigger = Buffer.allocUnsafe(Math.max(needed, this.bytes.length * 2));
      this.bytes.copy(bigger, 0, 0, this.length);
      this.bytes = bigger;
    }
    for (let i = start, to = this.length; i < end; i++, to++) this.bytes[to] = from[i]!;
    this.length = needed;
  }
}

/**
 * Reads a record with quotes byte by byte into `record`, its fields unquoted into `unquoted` (a
 * quote opens a quoted field only at the field's start; what follows its closing quote up to the
 * delimiter belongs to the field too). Answers where the next record begins, or -1 when the
 * record's end is not in `buffer` yet.
 */
function scanQuoted(
  buffer: Buffer,
  start: number,
  final: boolean,
  delimiter: number,
  record: ByteRecord,
  unquoted: Unquoted,
): number {
  const length = buffer.length;
  unquoted.length = 0;
  record.count = 0;
  record.unclosed = -1;
  let i = start;
  for (;;) {
    const fieldStart = unquoted.length;
    if (i < length && buffer[i] === 34) {
      // A quoted field: up to the quote that is not doubled.
      let j = i + 1;
      for (;;) {
        const close = buffer.indexOf(34, j);
        if (close < 0) {
          if (!final) return -1;
          record.unclosed = record.count;
          unquoted.copy(buffer, j, length);
          record.add(fieldStart, unquoted.length);
          record.bytes = unquoted.bytes;
          return length;
        }
        if (buffer[close + 1] === 34) {
          unquoted.copy(buffer, j, close + 1);
          j = close + 2;
          continue;
        }
        if (close + 1 >= length && !final) return -1;
        unquoted.copy(buffer, j, close);
        i = close + 1;
        break;
      }
    }
    // Plain bytes up to the next delimiter or line end (also what follows a closing quote).
    let k = i;
    while (k < length) {
      const c = buffer[k];
      if (c === delimiter || c === 10) break;
      k++;
    }
    if (k >= length && !final) return -1;
    // A CR before the line end (or the end of the bytes) is not part of the field.
    const end = k > i && buffer[k - 1] === 13 && (k >= length || buffer[k] === 10) ? k - 1 : k;
    unquoted.copy(buffer, i, end);
    record.add(fieldStart, unquoted.length);
    if (k >= length || buffer[k] === 10) {
      record.bytes = unquoted.bytes;
      return k >= length ? length : k + 1;
    }
    i = k + 1;
  }
}

function guessDelimiter(buffer: Buffer, start: number, end: number): number {
  let commas = 0;
  let semicolons = 0;
  for (let i = start; i < end; i++) {
    const c = buffer[i];
    if (c === 44) commas++;
    else if (c === 59) semicolons++;
  }
  return semicolons > commas ? 59 : 44;
}

/** Cuts a record without quotes at its delimiters. */
function cutPlain(record: ByteRecord, buffer: Buffer, start: number, end: number, delimiter: number) {
  record.bytes = buffer;
  record.count = 0;
  record.unclosed = -1;
  let from = start;
  for (let i = start; i < end; i++) {
    if (buffer[i] === delimiter) {
      record.add(from, i);
      from = i + 1;
    }
  }
  record.add(from, end);
}

/** Whether every field is blank (as papaparse's `skipEmptyLines: "greedy"` skips them). */
function isBlankRecord(record: ByteRecord): boolean {
  const { bytes, starts, ends } = record;
  for (let i = 0; i < record.count; i++) {
    const start = starts[i]!;
    if (start === ends[i]) continue;
    // Printable ASCII settles it; other characters are left to trim.
    const c = bytes[start]!;
    if ((c > 32 && c < 127) || record.field(i).trim().length > 0) return false;
  }
  return true;
}

/**
 * One record as positions of its fields in `bytes`. The scanner reuses it from record to record,
 * so it is valid only during the call that hands it over; `field` and `fields` decode strings that
 * stay.
 */
export class ByteRecord {
  bytes: Buffer = empty;
  count = 0;
  /** The field whose opening quote is never closed (it took the rest of the file), or -1. */
  unclosed = -1;
  /**
   * Blank records skipped just before this one: a spreadsheet numbers them as rows, so the lines
   * an import names count them (docs/import.md, "File format").
   */
  blankBefore = 0;
  starts = new Int32Array(32);
  ends = new Int32Array(32);

  /** A record of these fields. */
  static of(fields: readonly string[]): ByteRecord {
    const record = new ByteRecord();
    record.setFields(fields);
    return record;
  }

  /** Where field `i` starts, or 0 when the record has no such field (with `end`: an empty range). */
  start(i: number): number {
    return i >= 0 && i < this.count ? this.starts[i]! : 0;
  }

  /** Where field `i` ends, or 0 when the record has no such field. */
  end(i: number): number {
    return i >= 0 && i < this.count ? this.ends[i]! : 0;
  }

  /** Field `i`, or "" when the record has no such field. */
  field(i: number): string {
    return i >= 0 && i < this.count ? this.bytes.toString("utf8", this.starts[i], this.ends[i]) : "";
  }

  fields(): string[] {
    const fields: string[] = [];
    for (let i = 0; i < this.count; i++)
      fields.push(this.bytes.toString("utf8", this.starts[i], this.ends[i]));
    return fields;
  }

  setFields(fields: readonly string[]) {
    this.bytes = Buffer.from(fields.join(""), "utf8");
    this.count = 0;
    let at = 0;
    for (const field of fields) {
      const length = Buffer.byteLength(field, "utf8");
      this.add(at, at + length);
      at += length;
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
