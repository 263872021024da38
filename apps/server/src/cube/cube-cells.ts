import { recordTypes } from "@varia/contracts";
import { spreadShare } from "@varia/variance";
import { BinaryCopyWriter, firstDayOfMonth, monthOfDay } from "../db/binary-copy";

/** The cells of a monthly cube, as transferable columns. */
export interface CubeColumns {
  recordType: Uint8Array;
  month: Int32Array;
  clientId: Int32Array;
  itemId: Int32Array;
  salespersonId: Int32Array;
  quantity: Float64Array;
  revenue: Float64Array;
  cost: Float64Array;
  /** The lines (or their monthly shares) summed into each cell. */
  lines: Int32Array;
}

/** One line as the cube reads it: days since 2000-01-01, quantity in ten-thousandths. */
export interface CubeLine {
  /** Its index in `recordTypes`. */
  recordType: number;
  invoiceDay: number;
  /** NaN (both) when the line has no service period. */
  serviceFromDay: number;
  serviceToDay: number;
  clientId: number;
  itemId: number;
  /** 0: none. */
  salespersonId: number;
  quantity: number;
  amountCents: number;
  costCents: number;
}

/**
 * Builds the monthly cube from lines (docs/methodology.md, "Spreading"): a line sits in its invoice
 * month, or is spread over the whole months from ServiceFrom to ServiceTo, each month with the full
 * quantity and amount / N (cost likewise), leftover cents to the earliest months. A test holds it
 * to the same rule written in SQL (`cubeBySql` in test/import.test.ts).
 */
export class CubeCellsBuilder {
  private size = 0;
  private columns = allocate(1024);
  /**
   * The cells by key (record type, month, client, item, salesperson): an open-addressing table of
   * cell index + 1 (0 for a free slot), the keys themselves being read from the columns. At most
   * half full.
   */
  private slots = new Int32Array(2048);
  private readonly monthOf = new Map<number, number>();

  private month(day: number): number {
    let month = this.monthOf.get(day);
    if (month === undefined) {
      month = monthOfDay(day);
      this.monthOf.set(day, month);
    }
    return month;
  }

  /**
   * Adds a line to its cells (`sign` 1), or takes it off them (`sign` -1: a line an import replaces
   * or a restore removes), so that a cube updated line by line equals the cube built from the rows.
   */
  addLine(line: CubeLine, sign: 1 | -1 = 1) {
    const quantity = sign * line.quantity;
    const fromDay = line.serviceFromDay;
    if (Number.isNaN(fromDay)) {
      this.addCell(
        line.recordType,
        this.month(line.invoiceDay),
        line,
        quantity,
        sign * line.amountCents,
        sign * line.costCents,
        sign,
      );
      return;
    }
    const from = this.month(fromDay);
    const n = this.month(line.serviceToDay) - from + 1;
    for (let k = 0; k < n; k++)
      this.addCell(
        line.recordType,
        from + k,
        line,
        quantity,
        sign * spreadShare(line.amountCents, n, k),
        sign * spreadShare(line.costCents, n, k),
        sign,
      );
  }

  /** Adds the cells of another cube (built with the same ids). */
  addCells(cells: CubeColumns) {
    const line = { clientId: 0, itemId: 0, salespersonId: 0 };
    for (let i = 0; i < cells.month.length; i++) {
      line.clientId = cells.clientId[i]!;
      line.itemId = cells.itemId[i]!;
      line.salespersonId = cells.salespersonId[i]!;
      this.addCell(
        cells.recordType[i]!,
        cells.month[i]!,
        line,
        cells.quantity[i]!,
        cells.revenue[i]!,
        cells.cost[i]!,
        cells.lines[i]!,
      );
    }
  }

  private addCell(
    type: number,
    month: number,
    line: { clientId: number; itemId: number; salespersonId: number },
    quantity: number,
    revenue: number,
    cost: number,
    lines: number,
  ) {
    // As the Int32Array columns hold them, so that a key is found again by what they hold.
    const clientId = line.clientId | 0;
    const itemId = line.itemId | 0;
    const salespersonId = line.salespersonId | 0;
    const slots = this.slots;
    const mask = slots.length - 1;
    let g = this.columns;
    let slot = hashCell(type, month, clientId, itemId, salespersonId) & mask;
    let at: number;
    for (;;) {
      const found = slots[slot]!;
      if (found === 0) {
        at = this.size++;
        slots[slot] = at + 1;
        if (at >= g.month.length) g = this.columns = grow(g, g.month.length * 2);
        g.recordType[at] = type;
        g.month[at] = month;
        g.clientId[at] = clientId;
        g.itemId[at] = itemId;
        g.salespersonId[at] = salespersonId;
        g.quantity[at] = 0;
        g.revenue[at] = 0;
        g.cost[at] = 0;
        g.lines[at] = 0;
        if (this.size * 2 > slots.length) this.rehash(slots.length * 2);
        break;
      }
      at = found - 1;
      if (
        g.month[at] === month &&
        g.clientId[at] === clientId &&
        g.itemId[at] === itemId &&
        g.salespersonId[at] === salespersonId &&
        g.recordType[at] === type
      )
        break;
      slot = (slot + 1) & mask;
    }
    g.quantity[at] = g.quantity[at]! + quantity;
    g.revenue[at] = g.revenue[at]! + revenue;
    g.cost[at] = g.cost[at]! + cost;
    g.lines[at] = g.lines[at]! + lines;
  }

  private rehash(length: number) {
    const slots = new Int32Array(length);
    const mask = length - 1;
    const g = this.columns;
    for (let at = 0; at < this.size; at++) {
      const hash = hashCell(
        g.recordType[at]!,
        g.month[at]!,
        g.clientId[at]!,
        g.itemId[at]!,
        g.salespersonId[at]!,
      );
      let slot = hash & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = at + 1;
    }
    this.slots = slots;
  }

  /** The cells, trimmed to their count. */
  finish(): CubeColumns {
    return grow(this.columns, this.size);
  }
}

/** A 32-bit hash of a cell's key (ids and months as the columns hold them, in 32 bits). */
function hashCell(type: number, month: number, client: number, item: number, salesperson: number): number {
  let h = Math.imul(type * 131_072 + month, 0x9e3779b1);
  h = Math.imul(h ^ client ^ (h >>> 15), 0x85ebca6b);
  h = Math.imul(h ^ item ^ (h >>> 13), 0xc2b2ae35);
  h = Math.imul(h ^ salesperson ^ (h >>> 16), 0x27d4eb2d);
  return h ^ (h >>> 15);
}

/**
 * Cells as the body of a binary COPY into `cube_changes` (`cubeChangeColumns`), ids mapped by
 * `ids` (the file's own ids to the organisation's: see `DimensionResolver`), cells that add up to
 * nothing left out.
 */
export function encodeCubeChanges(
  cells: CubeColumns,
  ids?: { clientId: readonly number[]; itemId: readonly number[]; salespersonId: readonly number[] },
): Uint8Array[] {
  const writer = new BinaryCopyWriter();
  const firstDay = new Map<number, number>();
  for (let i = 0; i < cells.month.length; i++) {
    if (cells.lines[i] === 0 && cells.revenue[i] === 0 && cells.cost[i] === 0 && cells.quantity[i] === 0)
      continue;
    const month = cells.month[i]!;
    let day = firstDay.get(month);
    if (day === undefined) {
      day = firstDayOfMonth(month);
      firstDay.set(month, day);
    }
    writer.row(cubeChangeColumns.length);
    writer.text(recordTypes[cells.recordType[i]!]!);
    writer.date(day);
    writer.int8(ids ? ids.clientId[cells.clientId[i]!]! : cells.clientId[i]!);
    writer.int8(ids ? ids.itemId[cells.itemId[i]!]! : cells.itemId[i]!);
    writer.int8(ids ? ids.salespersonId[cells.salespersonId[i]!]! : cells.salespersonId[i]!);
    writer.numeric4(cells.quantity[i]!);
    writer.int8(cells.revenue[i]!);
    writer.int8(cells.cost[i]!);
    writer.int4(cells.lines[i]!);
  }
  return writer.finish();
}

export const cubeChangeColumns = [
  "record_type",
  "month",
  "client_id",
  "item_id",
  "salesperson_id",
  "quantity",
  "revenue_cents",
  "cost_cents",
  "line_count",
] as const;

function allocate(size: number): CubeColumns {
  return {
    recordType: new Uint8Array(size),
    month: new Int32Array(size),
    clientId: new Int32Array(size),
    itemId: new Int32Array(size),
    salespersonId: new Int32Array(size),
    quantity: new Float64Array(size),
    revenue: new Float64Array(size),
    cost: new Float64Array(size),
    lines: new Int32Array(size),
  };
}

function grow(columns: CubeColumns, size: number): CubeColumns {
  const next = allocate(size);
  const count = Math.min(size, columns.month.length);
  next.recordType.set(columns.recordType.subarray(0, count));
  next.month.set(columns.month.subarray(0, count));
  next.clientId.set(columns.clientId.subarray(0, count));
  next.itemId.set(columns.itemId.subarray(0, count));
  next.salespersonId.set(columns.salespersonId.subarray(0, count));
  next.quantity.set(columns.quantity.subarray(0, count));
  next.revenue.set(columns.revenue.subarray(0, count));
  next.cost.set(columns.cost.subarray(0, count));
  next.lines.set(columns.lines.subarray(0, count));
  return next;
}
