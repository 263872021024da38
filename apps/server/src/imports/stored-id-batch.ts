import type { IdMap } from "../cube/monthly-cube";

/**
 * A batch of lines as the reader wrote it for the staging table (`stagingColumns`: the file's own
 * ids of client, item and salesperson as `integer`, salesperson 0 for none), rewritten with the
 * organisation's ids as `invoice_lines` stores them: `bigint`, and null for no salesperson. Every
 * other field is copied as it is. This is what lets a first import COPY its lines straight into
 * the organisation's new table, with no staging table and no second write of every line
 * (docs/storage.md, "A first import: a table of its own, indexed after the load").
 *
 * `lineCount` is the batch's count of rows: each grows by at most 12 bytes (three 4-byte ids become
 * 8-byte ones), so one buffer of that size holds the result.
 */
export function withStoredIds(body: readonly Uint8Array[], lineCount: number, map: IdMap): Uint8Array {
  const data = asBuffer(body.length === 1 ? body[0]! : Buffer.concat(body));
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const out = Buffer.allocUnsafe(data.byteLength + 12 * lineCount);
  const put = new DataView(out.buffer, out.byteOffset, out.byteLength);
  // Signature (11 bytes), flags (4), the header extension's length (4) and the extension.
  let at = 19 + view.getInt32(15);
  let to = data.copy(out, 0, 0, at);
  for (;;) {
    const fields = view.getInt16(at);
    if (fields < 0) break;
    // The field count, the invoice number (never null), the line number and the date (4 bytes each).
    let p = at + 2;
    p += 4 + view.getInt32(p) + 8 + 8;
    to += data.copy(out, to, at, p);
    to = putId(put, to, map.clientId[view.getInt32(p + 4)]!);
    to = putId(put, to, map.itemId[view.getInt32(p + 12)]!);
    const salesperson = map.salespersonId[view.getInt32(p + 20)]!;
    if (salesperson === 0) {
      put.setInt32(to, -1);
      to += 4;
    } else to = putId(put, to, salesperson);
    p += 24;
    // The rest of the row as it is.
    const rest = p;
    for (let field = 6; field < fields; field++) {
      const length = view.getInt32(p);
      p += 4 + (length > 0 ? length : 0);
    }
    to += data.copy(out, to, rest, p);
    at = p;
  }
  put.setInt16(to, -1);
  return out.subarray(0, to + 2);
}

/** A `bigint` field of a positive safe integer, as two 32-bit halves (no BigInt per value). */
function putId(put: DataView, to: number, id: number) {
  put.setInt32(to, 8);
  put.setUint32(to + 4, Math.floor(id / 2 ** 32));
  put.setUint32(to + 8, id >>> 0);
  return to + 12;
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
