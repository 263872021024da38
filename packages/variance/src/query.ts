/**
 * The two-period variance of docs/methodology.md (activity, classification, salespeople, signs) over a Cube:
 * totals, the decomposition into Client, Service, Price, Volume, Usage and Transfer, contributions, acquired
 * and lost clients, and one line per (client, item) pair. Every figure is integer cents; the parts of each
 * line add up to its change.
 */
import { type Category, type Cube, type MonthIndex, type RecordType, stockTypeCodes } from "./cube";
import type { Cents, StockType, VarianceType } from "./decompose";
import { divideHalfEven, divideHalfEvenNumber } from "./rounding";

export type DataType = "Revenue" | "Margin";
export type Sign = "Positive" | "Negative";
export type LineStatus = "Existing" | "Added" | "Removed" | "Adhoc";

export const varianceTypeOrder: readonly VarianceType[] = [
  "Client",
  "Service",
  "Price",
  "Volume",
  "Usage",
  "Transfer",
];

export interface VarianceFilter {
  dataType: DataType;
  recordTypeFrom?: RecordType;
  recordTypeTo?: RecordType;
  /** Narrows what is summed, never what counts as active (docs/methodology.md#activity). */
  stockType?: StockType;
  clientId?: number;
  itemId?: number;
  /**
   * A salesperson's view (docs/methodology.md#salespeople-and-transfer): clients as that salesperson owns
   * them, with Transfer.
   */
  salespersonId?: number;
  excludedClientIds?: ReadonlySet<number>;
  excludedItemIds?: ReadonlySet<number>;
  /** Adds the Adhoc totals and Adhoc lines; Adhoc revenue is never in MRR. */
  showAdhoc?: boolean;
  /**
   * "summary" leaves out `lines` and `contributions` (empty), for callers that need only the totals,
   * the types and the client lists: several times faster on large cubes. Default "full".
   */
  detail?: "summary" | "full";
}

export interface VarianceQuery extends VarianceFilter {
  from: MonthIndex;
  to: MonthIndex;
}

export interface Contribution {
  type: VarianceType;
  sign: Sign;
  clientId: number;
  /**
   * null for Client and Transfer, which are summed per client
   * (docs/methodology.md#signs-contributions-and-lists).
   */
  itemId: number | null;
  value: Cents;
}

export interface PairLine {
  clientId: number;
  itemId: number;
  /** The client's salesperson (docs/methodology.md#salespeople-and-transfer) in T, else in F; 0 for none. */
  salespersonId: number;
  from: Cents;
  to: Cents;
  variance: Cents;
  quantityFrom: number;
  quantityTo: number;
  parts: Partial<Record<VarianceType, Cents>>;
  status: LineStatus;
  clientBadge?: "new" | "lost";
}

export type ByType = Record<VarianceType, { positive: Cents; negative: Cents }>;

export interface VarianceResult {
  dataType: DataType;
  from: MonthIndex;
  to: MonthIndex;
  totalFrom: Cents;
  totalTo: Cents;
  byType: ByType;
  contributions: Contribution[];
  acquiredClients: { clientId: number; value: Cents }[];
  lostClients: { clientId: number; value: Cents }[];
  lines: PairLine[];
  /** Clients subscribed (active, docs/methodology.md#kpis) in F and T among those the filter keeps. */
  clientsActiveFrom: number;
  clientsActiveTo: number;
  adhocFrom?: Cents;
  adhocTo?: Cents;
}

export function emptyByType(): ByType {
  return {
    Client: { positive: 0, negative: 0 },
    Service: { positive: 0, negative: 0 },
    Price: { positive: 0, negative: 0 },
    Volume: { positive: 0, negative: 0 },
    Usage: { positive: 0, negative: 0 },
    Transfer: { positive: 0, negative: 0 },
  };
}

/** A pair's sums in one month. */
interface PairMonth {
  /** The pair's whole Recurring revenue (its activity, docs/methodology.md#activity). */
  revenue: number;
  /** The measure of the cells the filter keeps. */
  value: number;
  quantity: number;
  included: boolean;
}

interface PairAgg {
  itemId: number;
  stockType: StockType;
  adhoc: boolean;
  f: PairMonth;
  t: PairMonth;
}

interface ClientAgg {
  clientId: number;
  /** Whole Recurring revenue, for activity. */
  revenueF: number;
  revenueT: number;
  ownersF: Map<number, number> | undefined;
  ownersT: Map<number, number> | undefined;
  pairs: Map<number, PairAgg>;
}

const emptyMonth = (): PairMonth => ({ revenue: 0, value: 0, quantity: 0, included: false });

/** The client and pair sums of two months, read once; every view of them is computed from this. */
export interface TwoMonths {
  cube: Cube;
  query: VarianceQuery;
  clients: Map<number, ClientAgg>;
}

function categoryOf(cube: Cube, itemId: number): Category {
  return cube.items.get(itemId)?.category ?? "Recurring";
}

/**
 * Reads the two months' cells of the cube into client and pair sums. A month's cells are sorted by
 * client, item and salesperson, so consecutive cells mostly belong to the same client and pair.
 * Owners (docs/methodology.md#salespeople-and-transfer) are summed only when asked for.
 */
export function readTwoMonths(cube: Cube, query: VarianceQuery, withOwners = true): TwoMonths {
  const clients = new Map<number, ClientAgg>();
  const margin = query.dataType === "Margin";
  const showAdhoc = query.showAdhoc === true;
  const excludedClients = query.excludedClientIds?.size ? query.excludedClientIds : undefined;
  const excludedItems = query.excludedItemIds?.size ? query.excludedItemIds : undefined;
  const wantStock = query.stockType === undefined ? -1 : stockTypeCodes.indexOf(query.stockType);
  const wantClient = query.clientId;
  const wantItem = query.itemId;
  const { clientId: clientIds, itemId: itemIds, category, stockType: stockTypes } = cube;
  const read = (recordType: RecordType, month: MonthIndex, f: boolean) => {
    const { start, end } = cube.slice(recordType, month);
    let client: ClientAgg | undefined;
    let pair: PairAgg | undefined;
    for (let i = start; i < end; i++) {
      const cat = category[i]!;
      if (cat === 2 || (cat === 1 && !showAdhoc)) continue;
      const clientId = clientIds[i]!;
      const itemId = itemIds[i]!;
      if (excludedClients?.has(clientId) || excludedItems?.has(itemId)) continue;
      const adhoc = cat === 1;
      const revenue = cube.revenue[i]!;
      if (client?.clientId !== clientId) {
        client = clients.get(clientId);
        pair = undefined;
        if (!client) {
          client = {
            clientId,
            revenueF: 0,
            revenueT: 0,
            ownersF: undefined,
            ownersT: undefined,
            pairs: new Map(),
          };
          clients.set(clientId, client);
        }
      }
      if (pair?.itemId !== itemId) {
        pair = client.pairs.get(itemId);
        if (!pair) {
          pair = {
            itemId,
            stockType: stockTypeCodes[stockTypes[i]!]!,
            adhoc,
            f: emptyMonth(),
            t: emptyMonth(),
          };
          client.pairs.set(itemId, pair);
        }
      }
      const m = f ? pair.f : pair.t;
      m.revenue += revenue;
      if (!adhoc) {
        if (f) client.revenueF += revenue;
        else client.revenueT += revenue;
        if (withOwners) {
          if (f) client.ownersF ??= new Map();
          else client.ownersT ??= new Map();
          const owners = (f ? client.ownersF : client.ownersT)!;
          const salespersonId = cube.salespersonId[i]!;
          owners.set(salespersonId, (owners.get(salespersonId) ?? 0) + revenue);
        }
      }
      if (
        (wantStock < 0 || stockTypes[i] === wantStock) &&
        (wantClient === undefined || clientId === wantClient) &&
        (wantItem === undefined || itemId === wantItem)
      ) {
        m.included = true;
        m.value += margin ? revenue - cube.cost[i]! : revenue;
        m.quantity += cube.quantity[i]!;
      }
    }
  };
  read(query.recordTypeFrom ?? "Actual", query.from, true);
  read(query.recordTypeTo ?? "Actual", query.to, false);
  return { cube, query, clients };
}

/** The salesperson with the largest Recurring revenue (ties: the name first alphabetically). */
function ownerOf(cube: Cube, owners: Map<number, number> | undefined): number | undefined {
  if (!owners) return undefined;
  let best: number | undefined;
  let bestRevenue = Number.NEGATIVE_INFINITY;
  for (const [salespersonId, revenue] of owners) {
    if (
      revenue > bestRevenue ||
      (revenue === bestRevenue && nameOf(cube, salespersonId) < nameOf(cube, best!))
    ) {
      best = salespersonId;
      bestRevenue = revenue;
    }
  }
  return best;
}

function nameOf(cube: Cube, salespersonId: number): string {
  return cube.salespeople.get(salespersonId)?.name ?? "";
}

/** Who a client belongs to in F and in T (docs/methodology.md#salespeople-and-transfer). */
export function clientOwners(cube: Cube, client: ClientAgg): { f: number; t: number } {
  const activeF = client.revenueF > 0;
  const activeT = client.revenueT > 0;
  const ownerF = ownerOf(cube, client.ownersF);
  const ownerT = ownerOf(cube, client.ownersT);
  if (activeF && activeT) return { f: ownerF ?? 0, t: ownerT ?? 0 };
  // Active in one period only (or neither): its salesperson where it is active, for both.
  const owner = activeT ? ownerT : activeF ? ownerF : (ownerT ?? ownerF);
  return { f: owner ?? 0, t: owner ?? 0 };
}

/** The parts of one pair (docs/methodology.md#classification-of-changes); they add up to its change. */
function pairParts(
  activeF: boolean,
  activeT: boolean,
  pair: PairAgg,
): { parts: Partial<Record<VarianceType, Cents>>; status: LineStatus } {
  const d = pair.t.value - pair.f.value;
  const pairActiveF = pair.f.revenue > 0;
  const pairActiveT = pair.t.revenue > 0;
  const status: LineStatus =
    !pairActiveF && pairActiveT ? "Added" : pairActiveF && !pairActiveT ? "Removed" : "Existing";
  if (activeF !== activeT) return { parts: { Client: d }, status };
  if (!activeF || !pairActiveF || !pairActiveT) {
    return { parts: pairActiveF !== pairActiveT && activeF ? { Service: d } : { Price: d }, status };
  }
  if (pair.f.quantity > 0 && pair.t.quantity > 0) {
    const effect = quantityEffect(pair.t.quantity - pair.f.quantity, pair.f.value, pair.f.quantity);
    return {
      parts: { [pair.stockType === "Hourly" ? "Usage" : "Volume"]: effect, Price: d - effect },
      status,
    };
  }
  return { parts: { Price: d }, status };
}

/** round_half_even((Q_T - Q_F) x V_F / Q_F) (docs/methodology.md, "Rounding"). */
function quantityEffect(deltaQ: number, valueF: number, quantityF: number): number {
  const product = deltaQ * valueF;
  if (Number.isSafeInteger(product)) return divideHalfEvenNumber(product, quantityF);
  return Number(divideHalfEven(BigInt(deltaQ) * BigInt(valueF), BigInt(quantityF)));
}

function emptyResult(query: VarianceQuery): VarianceResult {
  return {
    dataType: query.dataType,
    from: query.from,
    to: query.to,
    totalFrom: 0,
    totalTo: 0,
    byType: emptyByType(),
    contributions: [],
    acquiredClients: [],
    lostClients: [],
    lines: [],
    clientsActiveFrom: 0,
    clientsActiveTo: 0,
  };
}

/** The types a pair's parts may hold (Transfer is summed per client apart). */
const pairTypes = ["Client", "Service", "Price", "Volume", "Usage"] as const;

/** How a client enters a salesperson's view: fully, transferred out, transferred in, or not. */
type Share = "all" | "out" | "in";

function addClient(
  result: VarianceResult,
  client: ClientAgg,
  share: Share,
  salespersonId: number,
  full: boolean,
) {
  const activeF = client.revenueF > 0;
  const activeT = client.revenueT > 0;
  let clientPart = 0;
  let transfer = 0;
  let keptF = false;
  let keptT = false;
  for (const pair of client.pairs.values()) {
    if (!pair.f.included && !pair.t.included) continue;
    if (!pair.adhoc) {
      keptF ||= pair.f.included && pair.f.revenue !== 0;
      keptT ||= pair.t.included && pair.t.revenue !== 0;
    }
    if (pair.adhoc) {
      result.adhocFrom = (result.adhocFrom ?? 0) + (share === "in" ? 0 : pair.f.value);
      result.adhocTo = (result.adhocTo ?? 0) + (share === "out" ? 0 : pair.t.value);
      if (share !== "out" && full) {
        result.lines.push(line(client, pair, salespersonId, share, {}, "Adhoc", activeF, activeT));
      }
      continue;
    }
    const from = share === "in" ? 0 : pair.f.value;
    const to = share === "out" ? 0 : pair.t.value;
    result.totalFrom += from;
    result.totalTo += to;
    let parts: Partial<Record<VarianceType, Cents>>;
    let status: LineStatus;
    if (share === "out") {
      parts = { Transfer: -pair.f.value };
      status = pair.f.revenue > 0 ? "Removed" : "Existing";
      transfer -= pair.f.value;
    } else {
      ({ parts, status } = pairParts(activeF, activeT, pair));
      if (share === "in") {
        parts.Transfer = pair.f.value;
        transfer += pair.f.value;
      }
      for (const type of pairTypes) {
        const value = parts[type];
        if (value === undefined) continue;
        if (type === "Client") clientPart += value;
        else if (value !== 0) {
          result.byType[type][value > 0 ? "positive" : "negative"] += value;
          if (full) {
            const sign: Sign = value > 0 ? "Positive" : "Negative";
            result.contributions.push({ type, sign, clientId: client.clientId, itemId: pair.itemId, value });
          }
        }
      }
    }
    if (full) result.lines.push(line(client, pair, salespersonId, share, parts, status, activeF, activeT));
  }
  if (activeF && keptF && share !== "in") result.clientsActiveFrom++;
  if (activeT && keptT && share !== "out") result.clientsActiveTo++;
  // Client and Transfer contributions are summed per client before their sign is taken (7.5).
  for (const [type, value] of [
    ["Client", clientPart],
    ["Transfer", transfer],
  ] as const) {
    if (value === 0) continue;
    result.byType[type][value > 0 ? "positive" : "negative"] += value;
    if (full)
      result.contributions.push({
        type,
        sign: value > 0 ? "Positive" : "Negative",
        clientId: client.clientId,
        itemId: null,
        value,
      });
    if (type === "Client") {
      (value > 0 ? result.acquiredClients : result.lostClients).push({ clientId: client.clientId, value });
    }
  }
}

function line(
  client: ClientAgg,
  pair: PairAgg,
  salespersonId: number,
  share: Share,
  parts: Partial<Record<VarianceType, Cents>>,
  status: LineStatus,
  activeF: boolean,
  activeT: boolean,
): PairLine {
  const from = share === "in" ? 0 : pair.f.value;
  const to = share === "out" ? 0 : pair.t.value;
  const result: PairLine = {
    clientId: client.clientId,
    itemId: pair.itemId,
    salespersonId,
    from,
    to,
    variance: to - from,
    quantityFrom: pair.f.quantity,
    quantityTo: pair.t.quantity,
    parts,
    status,
  };
  if (!activeF && activeT) result.clientBadge = "new";
  else if (activeF && !activeT) result.clientBadge = "lost";
  return result;
}

function finish(cube: Cube, result: VarianceResult): VarianceResult {
  const code = (clientId: number) => cube.clients.get(clientId)?.code ?? "";
  const byCode = (a: number, b: number) => {
    const ca = code(a);
    const cb = code(b);
    return ca < cb ? -1 : ca > cb ? 1 : a - b;
  };
  const byValue = (a: { clientId: number; value: number }, b: { clientId: number; value: number }) =>
    Math.abs(b.value) - Math.abs(a.value) || byCode(a.clientId, b.clientId);
  result.acquiredClients.sort(byValue);
  result.lostClients.sort(byValue);
  result.contributions.sort(byValue);
  result.lines.sort(
    (a, b) => Math.abs(b.variance) - Math.abs(a.variance) || a.clientId - b.clientId || a.itemId - b.itemId,
  );
  return result;
}

/**
 * The variance between months F and T. With `salespersonId`, the salesperson's view
 * (docs/methodology.md#salespeople-and-transfer): the clients it owns, and Transfer for clients that changed
 * hands.
 */
export function variance(cube: Cube, query: VarianceQuery): VarianceResult {
  const withOwners = query.detail !== "summary" || query.salespersonId !== undefined;
  return varianceOf(readTwoMonths(cube, query, withOwners), query.salespersonId);
}

/** The variance of two months already read, for the organisation or one salesperson. */
export function varianceOf(months: TwoMonths, salespersonId?: number): VarianceResult {
  const { cube, query } = months;
  const result = emptyResult(query);
  const full = query.detail !== "summary";
  if (query.showAdhoc) {
    result.adhocFrom = 0;
    result.adhocTo = 0;
  }
  for (const client of months.clients.values()) {
    const owners = clientOwners(cube, client);
    if (salespersonId === undefined) {
      addClient(result, client, "all", owners.t, full);
      continue;
    }
    const activeBoth = client.revenueF > 0 && client.revenueT > 0;
    if (owners.f === salespersonId && owners.t === salespersonId)
      addClient(result, client, "all", salespersonId, full);
    else if (activeBoth && owners.f === salespersonId) addClient(result, client, "out", salespersonId, full);
    else if (activeBoth && owners.t === salespersonId) addClient(result, client, "in", salespersonId, full);
  }
  return finish(cube, result);
}

/**
 * Every salesperson's view (docs/methodology.md#salespeople-and-transfer), keyed by salesperson id (0:
 * clients without one). Transfer sums to zero over them, and their totals and other types add up to the
 * organisation's.
 */
export function varianceBySalesperson(cube: Cube, query: VarianceQuery): Map<number, VarianceResult> {
  const months = readTwoMonths(cube, { ...query, salespersonId: undefined });
  const ids = new Set<number>();
  for (const client of months.clients.values()) {
    const owners = clientOwners(cube, client);
    ids.add(owners.f);
    ids.add(owners.t);
  }
  const results = new Map<number, VarianceResult>();
  for (const id of [...ids].sort((a, b) => nameOf(cube, a).localeCompare(nameOf(cube, b)) || a - b)) {
    results.set(id, varianceOf(months, id));
  }
  return results;
}

/**
 * The client's salesperson in a month (docs/methodology.md#salespeople-and-transfer), or undefined when it
 * has no Recurring cells.
 */
export function ownerInMonth(
  cube: Cube,
  months: TwoMonths,
  clientId: number,
): { f: number; t: number } | undefined {
  const client = months.clients.get(clientId);
  return client ? clientOwners(cube, client) : undefined;
}

export { categoryOf };
