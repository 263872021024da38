/**
 * Writes rows in PostgreSQL's binary COPY format (`COPY … FROM STDIN WITH (FORMAT binary)`): no
 * text for the server to parse, which makes a bulk load of typed columns about as fast as a COPY of
 * plain text. Output comes in buffers of about `chunkBytes`, each transferable on its own.
 */
export class BinaryCopyWriter {
  private buffer: Buffer;
  private view: DataView;
  private position = 0;
  private readonly done: Uint8Array[] = [];

  constructor(private readonly chunkBytes = 1 << 20) {
    this.buffer = Buffer.allocUnsafe(chunkBytes);
    this.view = new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.byteLength);
    // Signature, flags, header extension length.
    this.position = this.buffer.write("PGCOPY\n\xff\r\n\0", 0, "latin1");
    this.view.setInt32(this.position, 0);
    this.view.setInt32(this.position + 4, 0);
    this.position += 8;
  }

  private room(bytes: number) {
    if (this.position + bytes <= this.buffer.length) return;
    if (this.position > 0) this.done.push(this.buffer.subarray(0, this.position));
    this.buffer = Buffer.allocUnsafe(Math.max(this.chunkBytes, bytes));
    this.view = new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.byteLength);
    this.position = 0;
  }

  /** Starts a row of `fields` fields. */
  row(fields: number) {
    this.room(2);
    this.view.setInt16(this.position, fields);
    this.position += 2;
  }

  null() {
    this.room(4);
    this.view.setInt32(this.position, -1);
    this.position += 4;
  }

  int4(value: number) {
    this.room(8);
    this.view.setInt32(this.position, 4);
    this.view.setInt32(this.position + 4, value);
    this.position += 8;
  }

  /** A bigint column from a safe integer. */
  int8(value: number) {
    this.room(12);
    this.view.setInt32(this.position, 8);
    this.view.setBigInt64(this.position + 4, BigInt(value));
    this.position += 12;
  }

  /** A date as days since 2000-01-01 (PostgreSQL's epoch). */
  date(day: number) {
    this.int4(day);
  }

  /** A uuid from its 16 bytes. */
  uuid(bytes: Uint8Array) {
    this.room(20);
    this.view.setInt32(this.position, 16);
    this.buffer.set(bytes, this.position + 4);
    this.position += 20;
  }

  /** A bytea column; a large value is passed on as a chunk of its own rather than copied. */
  bytes(value: Uint8Array) {
    if (value.byteLength < 1 << 16) {
      this.room(4 + value.byteLength);
      this.view.setInt32(this.position, value.byteLength);
      this.buffer.set(value, this.position + 4);
      this.position += 4 + value.byteLength;
      return;
    }
    this.room(4);
    this.view.setInt32(this.position, value.byteLength);
    this.position += 4;
    this.done.push(this.buffer.subarray(0, this.position), value);
    // What follows goes on in the rest of this buffer.
    this.buffer = this.buffer.subarray(this.position);
    this.view = new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.byteLength);
    this.position = 0;
  }

  /** A text column from UTF-8 bytes `bytes[start, end)`. */
  textBytes(bytes: Uint8Array, start: number, end: number) {
    const length = end - start;
    this.room(4 + length);
    this.view.setInt32(this.position, length);
    // Byte by byte: the texts are short, and a view per value to copy from costs more.
    const buffer = this.buffer;
    let to = this.position + 4;
    for (let i = start; i < end; i++) buffer[to++] = bytes[i]!;
    this.position = to;
  }

  text(value: string) {
    this.room(4 + value.length * 3);
    const length = this.buffer.write(value, this.position + 4, "utf8");
    this.view.setInt32(this.position, length);
    this.position += 4 + length;
  }

  /**
   * A numeric with 4 decimal places from an integer count of ten-thousandths: base-10000 digits,
   * the last of them the fraction.
   */
  numeric4(scaled: number) {
    let rest = Math.abs(scaled);
    const digits: number[] = [];
    while (rest > 0) {
      digits.push(rest % 10000);
      rest = (rest - (rest % 10000)) / 10000;
    }
    // digits[0] is the fraction; the weight of the most significant digit is digits.length - 2.
    let weight = digits.length - 2;
    let low = 0;
    while (low < digits.length && digits[low] === 0) low++;
    const count = digits.length - low;
    if (count === 0) weight = 0;
    this.room(4 + 8 + 2 * count);
    const v = this.view;
    let p = this.position;
    v.setInt32(p, 8 + 2 * count);
    v.setInt16(p + 4, count);
    v.setInt16(p + 6, weight);
    v.setUint16(p + 8, scaled < 0 ? 0x4000 : 0);
    v.setInt16(p + 10, 4);
    p += 12;
    for (let i = digits.length - 1; i >= low; i--) {
      v.setInt16(p, digits[i]!);
      p += 2;
    }
    this.position = p;
  }

  /** The rows written, with the trailer: the body of one COPY. */
  finish(): Uint8Array[] {
    this.room(2);
    this.view.setInt16(this.position, -1);
    this.position += 2;
    this.done.push(this.buffer.subarray(0, this.position));
    return this.done;
  }
}

/**
 * The rows of a binary COPY's output (`copy … to … with (format binary)`): each row's fields as
 * views on `data` (null for SQL null).
 */
export function* binaryCopyRows(data: Uint8Array): Generator<(Uint8Array | null)[]> {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (data.byteLength < 19) return;
  let at = 11 + 4;
  at += 4 + view.getInt32(at);
  for (;;) {
    const fields = view.getInt16(at);
    at += 2;
    if (fields < 0) return;
    const row: (Uint8Array | null)[] = [];
    for (let f = 0; f < fields; f++) {
      const length = view.getInt32(at);
      at += 4;
      if (length < 0) row.push(null);
      else {
        row.push(data.subarray(at, at + length));
        at += length;
      }
    }
    yield row;
  }
}

/** The 16 bytes of a uuid in its text form. */
export function uuidBytes(uuid: string): Uint8Array {
  return Buffer.from(uuid.replace(/-/g, ""), "hex");
}

const epoch2000 = Date.UTC(2000, 0, 1);
const msPerDay = 86_400_000;

/** Days since 2000-01-01 of a valid YYYY-MM-DD date. */
export function dayNumber(date: string): number {
  return (Date.parse(`${date}T00:00:00Z`) - epoch2000) / msPerDay;
}

/** The YYYY-MM-DD text of a day number. */
export function dateOfDay(day: number): string {
  return new Date(epoch2000 + day * msPerDay).toISOString().slice(0, 10);
}

/** The month index (`year * 12 + month - 1`) of a day number. */
export function monthOfDay(day: number): number {
  const date = new Date(epoch2000 + day * msPerDay);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}

/** The day number of the first day of a month index. */
export function firstDayOfMonth(month: number): number {
  const year = Math.floor(month / 12);
  const date = new Date(0);
  date.setUTCFullYear(year, month - year * 12, 1);
  return (date.getTime() - epoch2000) / msPerDay;
}
