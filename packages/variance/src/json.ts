/**
 * The JSON of docs/methodology.md#the-same-numbers-everywhere, printed by `varia variance --json` and
 * answered by GetVariance.
 */
import { periodFormat, periodFromMonthIndex } from "@varia/period";
import type { Cube } from "./cube";
import type { Cents, VarianceType } from "./decompose";
import { type VarianceResult, varianceTypeOrder } from "./query";

export interface VarianceJson {
  dataType: "Revenue" | "Margin";
  periodFrom: string;
  periodTo: string;
  totalFrom: number;
  totalTo: number;
  byType: Record<VarianceType, { positive: number; negative: number }>;
  acquiredClients: { clientCode: string; clientName: string; value: number }[];
  lostClients: { clientCode: string; clientName: string; value: number }[];
}

/** Cents to major units (123456 -> 1234.56), exact for every integer cent amount in range. */
export function centsToMajor(cents: Cents): number {
  return cents / 100;
}

/** The JSON of a variance result, keys in the documented order, money in major units. */
export function varianceJson(cube: Cube, result: VarianceResult): VarianceJson {
  const byType = {} as VarianceJson["byType"];
  for (const type of varianceTypeOrder) {
    byType[type] = {
      positive: centsToMajor(result.byType[type].positive),
      negative: centsToMajor(result.byType[type].negative),
    };
  }
  const code = (clientId: number) => cube.clients.get(clientId)?.code ?? String(clientId);
  const name = (clientId: number) => cube.clients.get(clientId)?.name ?? "";
  return {
    dataType: result.dataType,
    periodFrom: periodFormat(periodFromMonthIndex(result.from), "yearMonth"),
    periodTo: periodFormat(periodFromMonthIndex(result.to), "yearMonth"),
    totalFrom: centsToMajor(result.totalFrom),
    totalTo: centsToMajor(result.totalTo),
    byType,
    acquiredClients: result.acquiredClients.map((c) => ({
      clientCode: code(c.clientId),
      clientName: name(c.clientId),
      value: centsToMajor(c.value),
    })),
    lostClients: result.lostClients.map((c) => ({
      clientCode: code(c.clientId),
      clientName: name(c.clientId),
      value: centsToMajor(c.value),
    })),
  };
}
