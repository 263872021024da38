import { divideHalfEven } from "./rounding";

/**
 * The two-period decomposition of docs/methodology.md#activity, #classification-of-changes, per
 * (client, item) pair, in integer cents: the reference the cube engine (`variance`) is held to by a
 * property test. It has no salespeople and no Transfer.
 */

/** Integer cents. */
export type Cents = number & { readonly __unit?: "cents" };

export type StockType = "Subscription" | "Product" | "Hourly";
export type VarianceType = "Client" | "Service" | "Price" | "Volume" | "Usage" | "Transfer";

/** One cube cell of a month, for one client and item (salespeople summed). */
export interface CubeCell {
  client: string;
  item: string;
  stockType: StockType;
  /** Quantity in ten-thousandths (4 decimal places, exact). */
  quantity: bigint;
  revenue: Cents;
  cost: Cents;
}

export interface DecomposeOptions {
  dataType: "Revenue" | "Margin";
  /** Narrows what is summed, never what counts as active (docs/methodology.md#activity). */
  include?: (cell: CubeCell) => boolean;
}

export interface PairVariance {
  client: string;
  item: string;
  from: Cents;
  to: Cents;
  parts: Partial<Record<VarianceType, Cents>>;
}

export interface Decomposition {
  totalFrom: Cents;
  totalTo: Cents;
  pairs: PairVariance[];
  byType: Record<VarianceType, { positive: Cents; negative: Cents }>;
  acquiredClients: { client: string; value: Cents }[];
  lostClients: { client: string; value: Cents }[];
}

interface Pair {
  client: string;
  item: string;
  stockType: StockType;
  q: bigint;
  revenue: number;
  value: number;
}

/** Pairs of a month (Recurring cells only are passed in), keyed by client and item. */
function pairsOf(cells: readonly CubeCell[], options: DecomposeOptions) {
  const pairs = new Map<string, Pair>();
  const clientRevenue = new Map<string, number>();
  for (const cell of cells) {
    // Activity is judged on the client's whole recurring revenue (docs/methodology.md#activity).
    clientRevenue.set(cell.client, (clientRevenue.get(cell.client) ?? 0) + cell.revenue);
    const key = `${cell.client}\u0000${cell.item}`;
    let pair = pairs.get(key);
    if (!pair) {
      pair = { client: cell.client, item: cell.item, stockType: cell.stockType, q: 0n, revenue: 0, value: 0 };
      pairs.set(key, pair);
    }
    pair.revenue += cell.revenue;
    if (options.include?.(cell) ?? true) {
      pair.q += cell.quantity;
      pair.value += options.dataType === "Revenue" ? cell.revenue : cell.revenue - cell.cost;
    }
  }
  return { pairs, activeClients: new Set([...clientRevenue].filter(([, v]) => v > 0).map(([c]) => c)) };
}

const emptyTypes = (): Decomposition["byType"] => ({
  Client: { positive: 0, negative: 0 },
  Service: { positive: 0, negative: 0 },
  Price: { positive: 0, negative: 0 },
  Volume: { positive: 0, negative: 0 },
  Usage: { positive: 0, negative: 0 },
  Transfer: { positive: 0, negative: 0 },
});

/**
 * Splits the change of a measure between two months into Client, Service, Price, Volume and Usage
 * (docs/methodology.md#classification-of-changes). The cells are the months' Recurring cells; the parts of
 * every pair add up to its change to the cent, so the types add up to the total change.
 */
export function decompose(
  from: readonly CubeCell[],
  to: readonly CubeCell[],
  options: DecomposeOptions,
): Decomposition {
  const f = pairsOf(from, options);
  const t = pairsOf(to, options);
  const keys = new Set([...f.pairs.keys(), ...t.pairs.keys()]);
  const result: Decomposition = {
    totalFrom: 0,
    totalTo: 0,
    pairs: [],
    byType: emptyTypes(),
    acquiredClients: [],
    lostClients: [],
  };
  const clientPart = new Map<string, number>();
  for (const key of keys) {
    const pf = f.pairs.get(key);
    const pt = t.pairs.get(key);
    const client = (pf ?? pt)!.client;
    const item = (pf ?? pt)!.item;
    const stockType = (pt ?? pf)!.stockType;
    const vf = pf?.value ?? 0;
    const vt = pt?.value ?? 0;
    const d = vt - vf;
    result.totalFrom += vf;
    result.totalTo += vt;
    const activeF = f.activeClients.has(client);
    const activeT = t.activeClients.has(client);
    const pairActiveF = (pf?.revenue ?? 0) > 0;
    const pairActiveT = (pt?.revenue ?? 0) > 0;
    const parts: PairVariance["parts"] = {};
    if (activeF !== activeT) {
      parts.Client = d;
    } else if (!activeF) {
      parts.Price = d;
    } else if (pairActiveF !== pairActiveT) {
      parts.Service = d;
    } else if (!pairActiveF) {
      parts.Price = d;
    } else if ((pf?.q ?? 0n) > 0n && (pt?.q ?? 0n) > 0n) {
      const qf = pf!.q;
      const qt = pt!.q;
      const effect = Number(divideHalfEven((qt - qf) * BigInt(vf), qf));
      parts[stockType === "Hourly" ? "Usage" : "Volume"] = effect;
      parts.Price = d - effect;
    } else {
      parts.Price = d;
    }
    for (const [type, value] of Object.entries(parts) as [VarianceType, number][]) {
      if (type === "Client") {
        clientPart.set(client, (clientPart.get(client) ?? 0) + value);
        continue;
      }
      if (value > 0) result.byType[type].positive += value;
      else if (value < 0) result.byType[type].negative += value;
    }
    if (d !== 0) result.pairs.push({ client, item, from: vf, to: vt, parts });
  }
  // Client contributions are summed per client before their sign is taken
  // (docs/methodology.md#signs-contributions-and-lists).
  for (const [client, value] of clientPart) {
    if (value > 0) {
      result.byType.Client.positive += value;
      result.acquiredClients.push({ client, value });
    } else if (value < 0) {
      result.byType.Client.negative += value;
      result.lostClients.push({ client, value });
    }
  }
  const order = (a: { client: string; value: number }, b: { client: string; value: number }) =>
    Math.abs(b.value) - Math.abs(a.value) || a.client.localeCompare(b.client);
  result.acquiredClients.sort(order);
  result.lostClients.sort(order);
  return result;
}
