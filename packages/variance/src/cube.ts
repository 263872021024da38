/**
 * The monthly cube (docs/methodology.md#the-monthly-cube) held in memory, column by column, grouped by record
 * type and month so that a month's cells are one contiguous slice. Every number the product shows is computed
 * from a Cube by the functions of this package.
 */
import type { Cents, StockType } from "./decompose";

export type RecordType = "Actual" | "Budget" | "Forecast";
export type Category = "Recurring" | "Adhoc" | "Exclude";

/** A month as `year * 12 + (month - 1)` (the same index as `periodMonthIndex` of @varia/period). */
export type MonthIndex = number;

export interface CubeClient {
  id: number;
  code: string;
  name: string;
}

export interface CubeItem {
  id: number;
  code: string;
  name: string;
  stockType: StockType;
  /** The item's category with the organisation's default already applied. */
  category: Category;
}

export interface CubeSalesperson {
  id: number;
  name: string;
}

/** One row of the monthly_cube table. */
export interface CubeRow {
  recordType: RecordType;
  month: MonthIndex;
  clientId: number;
  itemId: number;
  /** 0 when the line has no salesperson. */
  salespersonId: number;
  /** Quantity in ten-thousandths (4 decimal places), an integer. */
  quantity: number;
  revenue: Cents;
  cost: Cents;
}

export interface CubeInput {
  clients: Iterable<CubeClient>;
  items: Iterable<CubeItem>;
  salespeople: Iterable<CubeSalesperson>;
  rows: Iterable<CubeRow>;
}

/** The codes of the `category` and `stockType` columns. */
export const categoryCodes: readonly Category[] = ["Recurring", "Adhoc", "Exclude"];
export const stockTypeCodes: readonly StockType[] = ["Subscription", "Product", "Hourly"];

/** The cells of one record type and month: indexes [start, end) into the cube's columns. */
export interface MonthSlice {
  start: number;
  end: number;
}

export class Cube {
  readonly clients: ReadonlyMap<number, CubeClient>;
  readonly items: ReadonlyMap<number, CubeItem>;
  readonly salespeople: ReadonlyMap<number, CubeSalesperson>;
  /** Columns, one entry per cell; cells of a (record type, month) are contiguous. */
  readonly clientId: Int32Array;
  readonly itemId: Int32Array;
  readonly salespersonId: Int32Array;
  /** Ten-thousandths; Float64 holds integers exactly up to 2^53. */
  readonly quantity: Float64Array;
  readonly revenue: Float64Array;
  readonly cost: Float64Array;
  /** Per cell, the item's category: 0 Recurring, 1 Adhoc, 2 Exclude. */
  readonly category: Uint8Array;
  /** Per cell, the item's stock type: 0 Subscription, 1 Product, 2 Hourly. */
  readonly stockType: Uint8Array;
  private readonly slices: Map<string, MonthSlice>;
  private readonly monthsByType: Map<RecordType, MonthIndex[]>;

  constructor(input: CubeInput) {
    this.clients = new Map([...input.clients].map((c) => [c.id, c]));
    this.items = new Map([...input.items].map((i) => [i.id, i]));
    this.salespeople = new Map([...input.salespeople].map((s) => [s.id, s]));
    const rows = [...input.rows].sort(
      (a, b) =>
        a.recordType.localeCompare(b.recordType) ||
        a.month - b.month ||
        a.clientId - b.clientId ||
        a.itemId - b.itemId ||
        a.salespersonId - b.salespersonId,
    );
    const n = rows.length;
    this.clientId = new Int32Array(n);
    this.itemId = new Int32Array(n);
    this.salespersonId = new Int32Array(n);
    this.quantity = new Float64Array(n);
    this.revenue = new Float64Array(n);
    this.cost = new Float64Array(n);
    this.category = new Uint8Array(n);
    this.stockType = new Uint8Array(n);
    this.slices = new Map();
    this.monthsByType = new Map();
    for (let i = 0; i < n; i++) {
      const row = rows[i]!;
      this.clientId[i] = row.clientId;
      this.itemId[i] = row.itemId;
      this.salespersonId[i] = row.salespersonId;
      this.quantity[i] = row.quantity;
      this.revenue[i] = row.revenue;
      this.cost[i] = row.cost;
      const item = this.items.get(row.itemId);
      this.category[i] = categoryCodes.indexOf(item?.category ?? "Recurring");
      this.stockType[i] = stockTypeCodes.indexOf(item?.stockType ?? "Subscription");
      const key = `${row.recordType}:${row.month}`;
      const slice = this.slices.get(key);
      if (slice) slice.end = i + 1;
      else {
        this.slices.set(key, { start: i, end: i + 1 });
        const months = this.monthsByType.get(row.recordType) ?? [];
        months.push(row.month);
        this.monthsByType.set(row.recordType, months);
      }
    }
  }

  /** The cells of a record type in a month (empty when there are none). */
  slice(recordType: RecordType, month: MonthIndex): MonthSlice {
    return this.slices.get(`${recordType}:${month}`) ?? { start: 0, end: 0 };
  }

  /** The months that hold cells of a record type, oldest first. */
  months(recordType: RecordType): readonly MonthIndex[] {
    return this.monthsByType.get(recordType) ?? [];
  }

  get size(): number {
    return this.clientId.length;
  }
}

export function buildCube(input: CubeInput): Cube {
  return new Cube(input);
}
