import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildCube, type Category, type CubeRow } from "./cube";
import { type CubeCell, decompose, type StockType } from "./decompose";
import { variance, varianceBySalesperson, varianceTypeOrder } from "./query";

const F = 2025 * 12 + 4; // 2025-05
const T = F + 1;

interface Line {
  month: number;
  client: string;
  item: string;
  rep?: string;
  quantity: number;
  revenue: number;
  cost?: number;
}

const itemTypes: Record<string, { stockType: StockType; category: Category }> = {
  PRO: { stockType: "Subscription", category: "Recurring" },
  SUP: { stockType: "Subscription", category: "Recurring" },
  HRS: { stockType: "Hourly", category: "Recurring" },
  BOX: { stockType: "Product", category: "Adhoc" },
  OFF: { stockType: "Product", category: "Exclude" },
};

/** A cube of named clients, items and salespeople; ids are assigned in order of appearance. */
function cubeOf(lines: Line[]) {
  const ids = (names: string[]) => new Map([...new Set(names)].map((n, i) => [n, i + 1]));
  const clients = ids(lines.map((l) => l.client));
  const items = ids(Object.keys(itemTypes));
  const reps = ids(lines.flatMap((l) => (l.rep ? [l.rep] : [])));
  const rows: CubeRow[] = lines.map((l) => ({
    recordType: "Actual",
    month: l.month,
    clientId: clients.get(l.client)!,
    itemId: items.get(l.item)!,
    salespersonId: l.rep ? reps.get(l.rep)! : 0,
    quantity: Math.round(l.quantity * 10_000),
    revenue: l.revenue,
    cost: l.cost ?? 0,
  }));
  const cube = buildCube({
    clients: [...clients].map(([code, id]) => ({ id, code, name: `Client ${code}` })),
    items: [...items].map(([code, id]) => ({ id, code, name: code, ...itemTypes[code]! })),
    salespeople: [...reps].map(([name, id]) => ({ id, name })),
    rows,
  });
  return {
    cube,
    client: (c: string) => clients.get(c)!,
    item: (i: string) => items.get(i)!,
    rep: (r: string) => reps.get(r)!,
  };
}

describe("variance over the cube", () => {
  it("leaves out Exclude items and keeps Adhoc out of the totals, shown only with ShowAdhoc", () => {
    const { cube } = cubeOf([
      { month: F, client: "A", item: "PRO", quantity: 1, revenue: 1000 },
      { month: T, client: "A", item: "PRO", quantity: 1, revenue: 1000 },
      { month: T, client: "A", item: "BOX", quantity: 1, revenue: 5000 },
      { month: T, client: "A", item: "OFF", quantity: 1, revenue: 7000 },
    ]);
    const plain = variance(cube, { dataType: "Revenue", from: F, to: T });
    expect([plain.totalFrom, plain.totalTo, plain.adhocTo]).toEqual([1000, 1000, undefined]);
    const adhoc = variance(cube, { dataType: "Revenue", from: F, to: T, showAdhoc: true });
    expect([adhoc.totalTo, adhoc.adhocFrom, adhoc.adhocTo]).toEqual([1000, 0, 5000]);
    expect(adhoc.lines.map((l) => l.status).sort()).toEqual(["Adhoc", "Existing"]);
  });

  it("a stock-type filter narrows what is summed, not who is active (docs/methodology.md#activity)", () => {
    // A keeps PRO and drops its hourly work: with the Hourly filter that is a removed service,
    // not a lost client, because A is still active on its whole Recurring revenue.
    const { cube } = cubeOf([
      { month: F, client: "A", item: "PRO", quantity: 1, revenue: 1000 },
      { month: F, client: "A", item: "HRS", quantity: 3, revenue: 300 },
      { month: T, client: "A", item: "PRO", quantity: 1, revenue: 1000 },
    ]);
    const hourly = variance(cube, { dataType: "Revenue", from: F, to: T, stockType: "Hourly" });
    expect(hourly.byType.Service.negative).toBe(-300);
    expect(hourly.lostClients).toEqual([]);
    expect([hourly.totalFrom, hourly.totalTo]).toEqual([300, 0]);
  });

  it("excluded clients and items are left out of everything", () => {
    const { cube, client, item } = cubeOf([
      { month: F, client: "A", item: "PRO", quantity: 1, revenue: 1000 },
      { month: T, client: "B", item: "PRO", quantity: 1, revenue: 400 },
      { month: T, client: "A", item: "SUP", quantity: 1, revenue: 200 },
    ]);
    const r = variance(cube, {
      dataType: "Revenue",
      from: F,
      to: T,
      excludedClientIds: new Set([client("B")]),
      excludedItemIds: new Set([item("SUP")]),
    });
    expect([r.totalFrom, r.totalTo]).toEqual([1000, 0]);
    expect(r.lostClients).toEqual([{ clientId: client("A"), value: -1000 }]);
    expect(r.acquiredClients).toEqual([]);
  });

  it("line statuses and client badges", () => {
    const { cube, client, item } = cubeOf([
      { month: F, client: "A", item: "PRO", quantity: 1, revenue: 1000 },
      { month: F, client: "A", item: "SUP", quantity: 1, revenue: 100 },
      { month: T, client: "A", item: "PRO", quantity: 1, revenue: 1000 },
      { month: T, client: "A", item: "HRS", quantity: 2, revenue: 200 },
      { month: T, client: "N", item: "PRO", quantity: 1, revenue: 900 },
    ]);
    const r = variance(cube, { dataType: "Revenue", from: F, to: T });
    const status = (c: string, i: string) =>
      r.lines.find((l) => l.clientId === client(c) && l.itemId === item(i));
    expect(status("A", "SUP")?.status).toBe("Removed");
    expect(status("A", "HRS")?.status).toBe("Added");
    expect(status("A", "PRO")?.status).toBe("Existing");
    expect(status("N", "PRO")).toMatchObject({ status: "Added", clientBadge: "new" });
    expect([r.clientsActiveFrom, r.clientsActiveTo]).toEqual([1, 2]);
  });
});

describe("salespeople and Transfer (docs/methodology.md#salespeople-and-transfer)", () => {
  it("a client's salesperson is the one with the largest Recurring revenue; ties go to the name first", () => {
    const { cube, client, rep } = cubeOf([
      { month: F, client: "A", item: "PRO", rep: "Zoe", quantity: 1, revenue: 600 },
      { month: F, client: "A", item: "SUP", rep: "Bob", quantity: 1, revenue: 400 },
      { month: T, client: "A", item: "PRO", rep: "Zoe", quantity: 1, revenue: 500 },
      { month: T, client: "A", item: "SUP", rep: "Bob", quantity: 1, revenue: 500 },
    ]);
    const byRep = varianceBySalesperson(cube, { dataType: "Revenue", from: F, to: T });
    // Zoe owned A in May (600 > 400); in June 500 = 500 and Bob comes first: A moved to Bob.
    const zoe = byRep.get(rep("Zoe"))!;
    const bob = byRep.get(rep("Bob"))!;
    expect(zoe.byType.Transfer).toEqual({ positive: 0, negative: -1000 });
    expect([zoe.totalFrom, zoe.totalTo]).toEqual([1000, 0]);
    expect(bob.byType.Transfer).toEqual({ positive: 1000, negative: 0 });
    expect([bob.totalFrom, bob.totalTo]).toEqual([0, 1000]);
    expect(bob.contributions.find((c) => c.type === "Transfer")).toMatchObject({
      clientId: client("A"),
      itemId: null,
      value: 1000,
    });
  });

  it("transfer out: -V_F and nothing else; transfer in: +V_F plus the usual decomposition", () => {
    const { cube, rep } = cubeOf([
      { month: F, client: "A", item: "PRO", rep: "Ann", quantity: 10, revenue: 50000 },
      { month: T, client: "A", item: "PRO", rep: "Bob", quantity: 12, revenue: 62400 },
    ]);
    const ann = variance(cube, { dataType: "Revenue", from: F, to: T, salespersonId: rep("Ann") });
    expect(ann.byType).toMatchObject({
      Transfer: { positive: 0, negative: -50000 },
      Volume: { positive: 0, negative: 0 },
      Price: { positive: 0, negative: 0 },
    });
    const bob = variance(cube, { dataType: "Revenue", from: F, to: T, salespersonId: rep("Bob") });
    expect(bob.byType).toMatchObject({
      Transfer: { positive: 50000, negative: 0 },
      Volume: { positive: 10000, negative: 0 },
      Price: { positive: 2400, negative: 0 },
    });
    expect(bob.totalTo - bob.totalFrom).toBe(62400);
    // The organisation's view has no Transfer.
    const org = variance(cube, { dataType: "Revenue", from: F, to: T });
    expect(org.byType.Transfer).toEqual({ positive: 0, negative: 0 });
    expect(org.byType.Volume.positive).toBe(10000);
  });

  it("a client active in one period belongs, for both, to its salesperson where it is active", () => {
    const { cube, rep } = cubeOf([
      { month: F, client: "L", item: "PRO", rep: "Ann", quantity: 1, revenue: 700 },
      { month: T, client: "L", item: "PRO", rep: "Bob", quantity: 1, revenue: -100 },
      { month: T, client: "N", item: "PRO", rep: "Bob", quantity: 1, revenue: 300 },
      { month: F, client: "N", item: "SUP", rep: "Ann", quantity: 1, revenue: -50 },
    ]);
    const ann = variance(cube, { dataType: "Revenue", from: F, to: T, salespersonId: rep("Ann") });
    const bob = variance(cube, { dataType: "Revenue", from: F, to: T, salespersonId: rep("Bob") });
    // L is active only in May (Ann): its whole change, a loss of 800, is Ann's; N only in June (Bob).
    expect(ann.byType.Client.negative).toBe(-800);
    expect(ann.byType.Transfer).toEqual({ positive: 0, negative: 0 });
    expect(bob.byType.Client.positive).toBe(350);
    expect(bob.byType.Transfer).toEqual({ positive: 0, negative: 0 });
  });

  it("a client active in neither period belongs to its salesperson in T, else in F", () => {
    const { cube, rep } = cubeOf([
      { month: F, client: "C", item: "PRO", rep: "Ann", quantity: 1, revenue: -500 },
      { month: T, client: "C", item: "PRO", rep: "Bob", quantity: 1, revenue: 0 },
      { month: F, client: "D", item: "PRO", rep: "Ann", quantity: 1, revenue: -200 },
    ]);
    const ann = variance(cube, { dataType: "Revenue", from: F, to: T, salespersonId: rep("Ann") });
    const bob = variance(cube, { dataType: "Revenue", from: F, to: T, salespersonId: rep("Bob") });
    expect(bob.byType.Price.positive).toBe(500);
    expect(ann.byType.Price.positive).toBe(200);
    expect(ann.totalFrom).toBe(-200);
  });
});

// Random cubes: a few clients, items and salespeople over the two months.
const clients = ["A", "B", "C", "D", "E"];
const items = ["PRO", "SUP", "HRS", "BOX"];
const reps = ["Ann", "Bob", "Cy"];
const lineArb = fc.record({
  month: fc.constantFrom(F, T),
  client: fc.constantFrom(...clients),
  item: fc.constantFrom(...items),
  rep: fc.constantFrom(...reps),
  quantity: fc.integer({ min: 0, max: 50 }).map((n) => n / 4),
  revenue: fc.integer({ min: -2000, max: 100_000 }),
  cost: fc.integer({ min: 0, max: 60_000 }),
});
const cubeArb = fc.array(lineArb, { maxLength: 40 });
const dataTypeArb = fc.constantFrom("Revenue" as const, "Margin" as const);

describe("properties on random cubes", () => {
  it("agrees with the pair-by-pair decomposition (organisation view)", () => {
    fc.assert(
      fc.property(cubeArb, dataTypeArb, (lines, dataType) => {
        const { cube } = cubeOf(lines);
        const cells = (month: number): CubeCell[] =>
          lines
            .filter((l) => l.month === month && itemTypes[l.item]!.category === "Recurring")
            .map((l) => ({
              client: l.client,
              item: l.item,
              stockType: itemTypes[l.item]!.stockType,
              quantity: BigInt(Math.round(l.quantity * 10_000)),
              revenue: l.revenue,
              cost: l.cost,
            }));
        const expected = decompose(cells(F), cells(T), { dataType });
        const actual = variance(cube, { dataType, from: F, to: T });
        expect(actual.byType).toEqual(expected.byType);
        expect([actual.totalFrom, actual.totalTo]).toEqual([expected.totalFrom, expected.totalTo]);
        const codes = (list: { clientId: number }[]) =>
          list.map((c) => cube.clients.get(c.clientId)!.code).sort();
        expect(codes(actual.acquiredClients)).toEqual(expected.acquiredClients.map((c) => c.client).sort());
        expect(codes(actual.lostClients)).toEqual(expected.lostClients.map((c) => c.client).sort());
      }),
    );
  });

  it("the types always add up to the change, and each line's parts to its change", () => {
    fc.assert(
      fc.property(
        cubeArb,
        dataTypeArb,
        fc.constantFrom(undefined, "Ann", "Bob"),
        (lines, dataType, repName) => {
          const { cube, rep } = cubeOf(lines);
          const salespersonId = repName && lines.some((l) => l.rep === repName) ? rep(repName) : undefined;
          const r = variance(cube, { dataType, from: F, to: T, salespersonId });
          const sum = varianceTypeOrder.reduce((s, t) => s + r.byType[t].positive + r.byType[t].negative, 0);
          expect(sum).toBe(r.totalTo - r.totalFrom);
          for (const line of r.lines) {
            if (line.status === "Adhoc") continue;
            expect(Object.values(line.parts).reduce((s, v) => s + v, 0)).toBe(line.variance);
          }
        },
      ),
    );
  });

  it("Transfer sums to zero over salespeople, whose totals and other types add up to the organisation's", () => {
    fc.assert(
      fc.property(cubeArb, dataTypeArb, (lines, dataType) => {
        const { cube } = cubeOf(lines);
        const org = variance(cube, { dataType, from: F, to: T });
        const views = [...varianceBySalesperson(cube, { dataType, from: F, to: T }).values()];
        const total = (pick: (r: typeof org) => number) => views.reduce((s, v) => s + pick(v), 0);
        expect(total((v) => v.byType.Transfer.positive + v.byType.Transfer.negative)).toBe(0);
        expect(total((v) => v.totalFrom)).toBe(org.totalFrom);
        expect(total((v) => v.totalTo)).toBe(org.totalTo);
        for (const type of varianceTypeOrder.filter((t) => t !== "Transfer")) {
          expect(total((v) => v.byType[type].positive + v.byType[type].negative)).toBe(
            org.byType[type].positive + org.byType[type].negative,
          );
        }
      }),
    );
  });

  it("Revenue and Margin classify clients and lines alike", () => {
    fc.assert(
      fc.property(cubeArb, (lines) => {
        const { cube } = cubeOf(lines);
        const revenue = variance(cube, { dataType: "Revenue", from: F, to: T });
        const margin = variance(cube, { dataType: "Margin", from: F, to: T });
        const clientsOf = (r: typeof revenue, type: "Client") =>
          new Set(r.lines.filter((l) => l.parts[type] !== undefined).map((l) => l.clientId));
        expect(clientsOf(margin, "Client")).toEqual(clientsOf(revenue, "Client"));
        const statuses = (r: typeof revenue) =>
          r.lines.map((l) => `${l.clientId}/${l.itemId}/${l.status}/${l.clientBadge ?? ""}`).sort();
        expect(statuses(margin)).toEqual(statuses(revenue));
        expect(margin.clientsActiveTo).toBe(revenue.clientsActiveTo);
      }),
    );
  });
});
