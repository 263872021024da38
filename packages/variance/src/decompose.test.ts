import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CubeCell, decompose, type StockType, type VarianceType } from "./decompose";
import { divideHalfEven } from "./rounding";

const q = (n: number) => BigInt(Math.round(n * 10_000));
const cell = (
  client: string,
  item: string,
  quantity: number,
  revenue: number,
  stockType: StockType = "Subscription",
  cost = 0,
): CubeCell => ({
  client,
  item,
  stockType,
  quantity: q(quantity),
  revenue,
  cost,
});
const revenue = { dataType: "Revenue" as const };
const partsOf = (from: CubeCell[], to: CubeCell[], client: string, item: string) =>
  decompose(from, to, revenue).pairs.find((p) => p.client === client && p.item === item)?.parts;

describe("the decomposition of docs/methodology.md#classification-of-changes, row by row", () => {
  it("acquired client: Client = D", () => {
    const r = decompose([], [cell("A", "PRO", 2, 10000)], revenue);
    expect(r.pairs[0]?.parts).toEqual({ Client: 10000 });
    expect(r.acquiredClients).toEqual([{ client: "A", value: 10000 }]);
    expect(r.byType.Client).toEqual({ positive: 10000, negative: 0 });
  });

  it("lost client: Client = D", () => {
    const r = decompose([cell("A", "PRO", 2, 10000), cell("A", "SUP", 1, 500)], [], revenue);
    expect(r.lostClients).toEqual([{ client: "A", value: -10500 }]);
    expect(r.byType.Client.negative).toBe(-10500);
  });

  it("client inactive in both: Price = D (a credit note and its reversal)", () => {
    expect(partsOf([cell("A", "PRO", 1, -500)], [cell("A", "PRO", 1, 0)], "A", "PRO")).toEqual({
      Price: 500,
    });
  });

  it("service added and removed: Service = D", () => {
    const from = [cell("A", "PRO", 1, 1000), cell("A", "OLD", 1, 300)];
    const to = [cell("A", "PRO", 1, 1000), cell("A", "NEW", 1, 700)];
    expect(partsOf(from, to, "A", "NEW")).toEqual({ Service: 700 });
    expect(partsOf(from, to, "A", "OLD")).toEqual({ Service: -300 });
  });

  it("pair inactive in both while the client is active: Price = D", () => {
    const from = [cell("A", "PRO", 1, 1000), cell("A", "X", 1, -200)];
    const to = [cell("A", "PRO", 1, 1000), cell("A", "X", 1, -50)];
    expect(partsOf(from, to, "A", "X")).toEqual({ Price: 150 });
  });

  it("both active, quantities both positive: Volume = (Q_T - Q_F) x V_F / Q_F, Price the rest", () => {
    // 10 seats at 50.00 to 12 seats at 52.00: volume 2 x 50.00 = 100.00, price 12 x 2.00 = 24.00.
    expect(partsOf([cell("A", "PRO", 10, 50000)], [cell("A", "PRO", 12, 62400)], "A", "PRO")).toEqual({
      Volume: 10000,
      Price: 2400,
    });
  });

  it("hourly items move Usage, not Volume", () => {
    expect(
      partsOf([cell("A", "HRS", 4, 48000, "Hourly")], [cell("A", "HRS", 6, 72000, "Hourly")], "A", "HRS"),
    ).toEqual({
      Usage: 24000,
      Price: 0,
    });
  });

  it("rounds the quantity effect half to even, to the cent", () => {
    // (4 - 3) x 100 / 3 = 33.33... cents -> 33; (3 - 1) x 5 / 4 = 2.5 -> 2; (5 - 1) x 7 / 8 = 3.5 -> 4
    expect(partsOf([cell("A", "P", 3, 100)], [cell("A", "P", 4, 200)], "A", "P")).toEqual({
      Volume: 33,
      Price: 67,
    });
    expect(divideHalfEven(10n, 4n)).toBe(2n);
    expect(divideHalfEven(28n, 8n)).toBe(4n);
    expect(divideHalfEven(-10n, 4n)).toBe(-2n);
  });

  it("both active but a quantity of zero: Price = D", () => {
    expect(partsOf([cell("A", "P", 0, 100)], [cell("A", "P", 2, 300)], "A", "P")).toEqual({ Price: 200 });
  });

  it("judges activity on the whole client, even when a filter narrows what is summed", () => {
    const from = [cell("A", "PRO", 1, 1000), cell("A", "HW", 1, 500, "Product")];
    const to = [cell("A", "PRO", 1, 1000)];
    const onlyProducts = decompose(from, to, {
      dataType: "Revenue",
      include: (c) => c.stockType === "Product",
    });
    expect(onlyProducts.pairs).toEqual([
      { client: "A", item: "HW", from: 500, to: 0, parts: { Service: -500 } },
    ]);
    expect(onlyProducts.lostClients).toEqual([]);
  });

  it("classifies Margin as Revenue does (activity is judged on revenue)", () => {
    const from = [cell("A", "PRO", 10, 50000, "Subscription", 60000)];
    const to = [cell("A", "PRO", 12, 62400, "Subscription", 70000)];
    const margin = decompose(from, to, { dataType: "Margin" });
    expect(Object.keys(margin.pairs[0]?.parts ?? {})).toEqual(["Volume", "Price"]);
  });
});

const arbCells = fc.array(
  fc.record({
    client: fc.constantFrom("A", "B", "C", "D"),
    item: fc.constantFrom("P1", "P2", "H1"),
    quantity: fc.integer({ min: 0, max: 50 }),
    revenue: fc.integer({ min: -5000, max: 100000 }),
    cost: fc.integer({ min: 0, max: 50000 }),
  }),
  { maxLength: 12 },
);
const toCells = (
  rows: { client: string; item: string; quantity: number; revenue: number; cost: number }[],
) => {
  const merged = new Map<string, CubeCell>();
  for (const r of rows) {
    const key = `${r.client}/${r.item}`;
    const existing = merged.get(key);
    const stockType: StockType = r.item.startsWith("H") ? "Hourly" : "Subscription";
    if (existing) {
      existing.quantity += q(r.quantity);
      existing.revenue += r.revenue;
      existing.cost += r.cost;
    } else
      merged.set(key, {
        client: r.client,
        item: r.item,
        stockType,
        quantity: q(r.quantity),
        revenue: r.revenue,
        cost: r.cost,
      });
  }
  return [...merged.values()];
};

describe("properties over random cubes", () => {
  it("the types always add up to the total change, to the cent", () => {
    fc.assert(
      fc.property(
        arbCells,
        arbCells,
        fc.constantFrom("Revenue" as const, "Margin" as const),
        (a, b, dataType) => {
          const r = decompose(toCells(a), toCells(b), { dataType });
          const sum = (Object.keys(r.byType) as VarianceType[]).reduce(
            (total, type) => total + r.byType[type].positive + r.byType[type].negative,
            0,
          );
          expect(sum).toBe(r.totalTo - r.totalFrom);
          for (const pair of r.pairs) {
            expect(Object.values(pair.parts).reduce((x, y) => x + (y ?? 0), 0)).toBe(pair.to - pair.from);
          }
        },
      ),
    );
  });

  it("Revenue and Margin classify clients alike", () => {
    fc.assert(
      fc.property(arbCells, arbCells, (a, b) => {
        const kinds = (dataType: "Revenue" | "Margin") =>
          new Map(
            decompose(toCells(a), toCells(b), { dataType }).pairs.map((p) => [
              `${p.client}/${p.item}`,
              Object.keys(p.parts).sort().join(),
            ]),
          );
        const revenue = kinds("Revenue");
        // A pair whose change is zero is not listed; every pair listed under both has the same case.
        for (const [key, value] of kinds("Margin"))
          if (revenue.has(key)) expect(value).toBe(revenue.get(key));
      }),
    );
  });
});
