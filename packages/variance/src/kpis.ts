/** The KPIs, and clients ranked by value (docs/methodology.md#kpis, #signs-contributions-and-lists). */
import type { Cube, MonthIndex, RecordType } from "./cube";
import type { Cents } from "./decompose";
import { type VarianceFilter, type VarianceQuery, type VarianceResult, variance } from "./query";
import { divideHalfEven } from "./rounding";

export interface Kpis {
  mrr: Cents;
  arr: Cents;
  mrrFrom: Cents;
  arrFrom: Cents;
  clientsSubscribed: number;
  clientsSubscribedFrom: number;
  /** MRR per subscribed client, rounded half to even; 0 when there are none. */
  arpa: Cents;
  /** The same in F. */
  arpaFrom: Cents;
  newMrr: Cents;
  churnedMrr: Cents;
  expansionMrr: Cents;
  contractionMrr: Cents;
  /** Ratios (1 = 100 %); null when MRR in F is 0. */
  grr: number | null;
  nrr: number | null;
}

/** The KPIs of T against F, from the variance of the two months. */
export function kpis(
  cube: Cube,
  query: VarianceQuery,
  result: VarianceResult = variance(cube, { ...query, detail: "summary" }),
): Kpis {
  const t = result.byType;
  const expansion = t.Service.positive + t.Price.positive + t.Volume.positive + t.Usage.positive;
  const contraction = t.Service.negative + t.Price.negative + t.Volume.negative + t.Usage.negative;
  const mrr = result.totalTo;
  const mrrFrom = result.totalFrom;
  const clientsSubscribed = result.clientsActiveTo;
  const clientsSubscribedFrom = result.clientsActiveFrom;
  const ratio = (value: number) => (mrrFrom === 0 ? null : value / mrrFrom);
  const perClient = (value: Cents, clients: number) =>
    clients === 0 ? 0 : Number(divideHalfEven(BigInt(value), BigInt(clients)));
  return {
    mrr,
    arr: 12 * mrr,
    mrrFrom,
    arrFrom: 12 * mrrFrom,
    clientsSubscribed,
    clientsSubscribedFrom,
    arpa: perClient(mrr, clientsSubscribed),
    arpaFrom: perClient(mrrFrom, clientsSubscribedFrom),
    newMrr: t.Client.positive,
    churnedMrr: t.Client.negative,
    expansionMrr: expansion,
    contractionMrr: contraction,
    grr: ratio(mrrFrom + t.Client.negative + contraction),
    nrr: ratio(mrrFrom + t.Client.negative + contraction + expansion),
  };
}

export interface RankedClient {
  clientId: number;
  value: Cents;
  /** 1 = the largest. */
  rank: number;
  /** Share of the total (0.25 = 25 %). */
  contribution: number;
}

/**
 * Clients ordered by their value in a month, 1 = largest (docs/methodology.md#signs-contributions-and-lists),
 * with their share of the total.
 */
export function rankClients(
  cube: Cube,
  filter: VarianceFilter & { month: MonthIndex; recordType?: RecordType },
): RankedClient[] {
  const recordType = filter.recordType ?? filter.recordTypeTo ?? "Actual";
  const result = variance(cube, {
    ...filter,
    recordTypeFrom: recordType,
    recordTypeTo: recordType,
    from: filter.month,
    to: filter.month,
    showAdhoc: false,
  });
  const byClient = new Map<number, number>();
  for (const line of result.lines) byClient.set(line.clientId, (byClient.get(line.clientId) ?? 0) + line.to);
  const total = result.totalTo;
  const code = (id: number) => cube.clients.get(id)?.code ?? "";
  return [...byClient]
    .filter(([, value]) => value !== 0)
    .sort(([a, va], [b, vb]) => vb - va || code(a).localeCompare(code(b)))
    .map(([clientId, value], index) => ({
      clientId,
      value,
      rank: index + 1,
      contribution: total === 0 ? 0 : value / total,
    }));
}
