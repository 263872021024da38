/** Cohorts of clients by the month they were first active (docs/methodology.md, "Cohorts"). */
import type { Cube, MonthIndex } from "./cube";
import type { Cents } from "./decompose";
import { readTwoMonths, type VarianceFilter, type VarianceQuery, variance } from "./query";

export interface Cohort {
  /** The month its clients were first active. */
  month: MonthIndex;
  /** Its clients: first active in `month`, and in the view's sums that month. */
  clients: number;
  /** The view's MRR of its clients in each month from its own (index 0) to periodTo. */
  mrr: Cents[];
  /** How many of its clients were active in each of those months. */
  active: number[];
}

/**
 * The cohorts of the `periodCount` months ending at `periodTo` (default 12), oldest first. The first
 * month of actual data is never a cohort: its clients may have started long before it.
 */
export function cohorts(
  cube: Cube,
  filter: VarianceFilter & { periodTo: MonthIndex; periodCount?: number },
): Cohort[] {
  const months = cube.months("Actual").filter((m) => m <= filter.periodTo);
  const dataStart = months[0];
  if (dataStart === undefined) return [];
  const firstCohort = Math.max(dataStart + 1, filter.periodTo - (filter.periodCount ?? 12) + 1);
  const { periodTo: _, periodCount: __, ...rest } = filter;
  const base: VarianceFilter = {
    ...rest,
    recordTypeFrom: "Actual",
    recordTypeTo: "Actual",
    showAdhoc: false,
  };
  /** Month by month: who is active (whole Recurring revenue, as "Activity" says) and each client's sum. */
  const firstActive = new Map<number, MonthIndex>();
  const activeIn: Set<number>[] = [];
  const valueIn: Map<number, Cents>[] = [];
  for (let month = dataStart; month <= filter.periodTo; month++) {
    const query: VarianceQuery = { ...base, from: month, to: month };
    const active = new Set<number>();
    for (const client of readTwoMonths(cube, query, false).clients.values()) {
      if (client.revenueT > 0) {
        active.add(client.clientId);
        if (!firstActive.has(client.clientId)) firstActive.set(client.clientId, month);
      }
    }
    // The view's sums are needed from the first cohort on; activity from the first month of data.
    const values = new Map<number, Cents>();
    if (month >= firstCohort)
      for (const line of variance(cube, query).lines)
        values.set(line.clientId, (values.get(line.clientId) ?? 0) + line.to);
    activeIn.push(active);
    valueIn.push(values);
  }
  const result: Cohort[] = [];
  for (let month = firstCohort; month <= filter.periodTo; month++) {
    const at = month - dataStart;
    const members = [...firstActive]
      .filter(([clientId, first]) => first === month && valueIn[at]!.has(clientId))
      .map(([clientId]) => clientId);
    const mrr: Cents[] = [];
    const active: number[] = [];
    for (let later = at; later < valueIn.length; later++) {
      mrr.push(members.reduce((sum, id) => sum + (valueIn[later]!.get(id) ?? 0), 0));
      active.push(members.filter((id) => activeIn[later]!.has(id)).length);
    }
    result.push({ month, clients: members.length, mrr, active });
  }
  return result;
}
