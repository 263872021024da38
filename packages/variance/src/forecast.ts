/**
 * The forecast of docs/methodology.md#forecast: Holt's linear trend (double exponential smoothing) fitted on
 * up to 36 past months, the next 12 months with an 80 % prediction interval, and the method's back-tested
 * error beside it.
 *
 * Fit: level l and trend b start at y0 and y1 - y0; alpha and beta are chosen on a grid of 0.05
 * steps by the least one-step-ahead squared error. Interval: the h-step variance of Holt's method
 * (ETS(A,A,N)), sigma^2 * (1 + sum_{j=1}^{h-1} alpha^2 (1 + j beta)^2), with sigma^2 the mean squared
 * one-step error over n - 2 degrees of freedom; 80 % is +-1.2816 standard deviations.
 * Back-test: rolling origin over the last up-to-12 months: fit on the months before each origin,
 * forecast the origin one step ahead; MAPE over months with a non-zero actual, and MAE.
 */

import { trend } from "./charts";
import type { Cube, MonthIndex } from "./cube";
import type { Cents } from "./decompose";
import type { VarianceFilter } from "./query";

export interface ForecastPoint {
  month: MonthIndex;
  value: Cents;
  lower: Cents;
  upper: Cents;
}

export interface Forecast {
  history: { month: MonthIndex; value: Cents }[];
  points: ForecastPoint[];
  alpha: number;
  beta: number;
  backtest: { mape: number | null; mae: Cents; months: number };
}

const z80 = 1.2816;
const grid = Array.from({ length: 19 }, (_, i) => (i + 1) / 20);

interface HoltFit {
  alpha: number;
  beta: number;
  level: number;
  trend: number;
  sse: number;
}

function run(series: readonly number[], alpha: number, beta: number): HoltFit {
  let level = series[0]!;
  let slope = series.length > 1 ? series[1]! - series[0]! : 0;
  let sse = 0;
  for (let t = 1; t < series.length; t++) {
    const predicted = level + slope;
    const error = series[t]! - predicted;
    sse += error * error;
    const previous = level;
    level = alpha * series[t]! + (1 - alpha) * (level + slope);
    slope = beta * (level - previous) + (1 - beta) * slope;
  }
  return { alpha, beta, level, trend: slope, sse };
}

/** The best alpha and beta on the grid for a series of at least two values. */
export function fitHolt(series: readonly number[]): HoltFit {
  let best = run(series, grid[0]!, grid[0]!);
  for (const alpha of grid) {
    for (const beta of grid) {
      const fit = run(series, alpha, beta);
      if (fit.sse < best.sse - 1e-9) best = fit;
    }
  }
  return best;
}

/** Forecast `horizon` values after a series with Holt's method; a flat line for one value. */
export function holtForecast(series: readonly number[], horizon: number) {
  if (series.length === 0)
    return { fit: undefined, values: [] as { value: number; lower: number; upper: number }[] };
  if (series.length === 1) {
    const v = series[0]!;
    return {
      fit: undefined,
      values: Array.from({ length: horizon }, () => ({ value: v, lower: v, upper: v })),
    };
  }
  const fit = fitHolt(series);
  const sigma2 = series.length > 2 ? fit.sse / (series.length - 2) : 0;
  const values = [];
  let sum = 0;
  for (let h = 1; h <= horizon; h++) {
    if (h > 1) sum += fit.alpha ** 2 * (1 + (h - 1) * fit.beta) ** 2;
    const value = fit.level + h * fit.trend;
    const spread = z80 * Math.sqrt(sigma2 * (1 + sum));
    values.push({ value, lower: value - spread, upper: value + spread });
  }
  return { fit, values };
}

/** MRR forecast from the months up to periodTo (only months from the first with data). */
export function forecast(
  cube: Cube,
  filter: VarianceFilter & { periodTo: MonthIndex; horizon?: number; history?: number },
): Forecast {
  const horizon = filter.horizon ?? 12;
  const months = cube.months(filter.recordTypeTo ?? "Actual");
  const first = months.length
    ? Math.max(months[0]!, filter.periodTo - (filter.history ?? 36) + 1)
    : filter.periodTo;
  const history = trend(cube, { ...filter, periodCount: Math.max(1, filter.periodTo - first + 1) }).map(
    (p) => ({
      month: p.month,
      value: p.total,
    }),
  );
  const series = history.map((p) => p.value);
  const { fit, values } = holtForecast(series, horizon);
  return {
    history,
    points: values.map((v, i) => ({
      month: filter.periodTo + i + 1,
      value: Math.round(v.value),
      lower: Math.round(v.lower),
      upper: Math.round(v.upper),
    })),
    alpha: fit?.alpha ?? 1,
    beta: fit?.beta ?? 0,
    backtest: backtest(series),
  };
}

/** One-step-ahead rolling-origin errors over the last up-to-12 values (each fit on at least 3). */
export function backtest(series: readonly number[]): { mape: number | null; mae: Cents; months: number } {
  const origins: number[] = [];
  for (let o = Math.max(3, series.length - 12); o < series.length; o++) origins.push(o);
  let absolute = 0;
  let percentage = 0;
  let counted = 0;
  for (const o of origins) {
    const predicted = holtForecast(series.slice(0, o), 1).values[0]!.value;
    const actual = series[o]!;
    absolute += Math.abs(actual - predicted);
    if (actual !== 0) {
      percentage += Math.abs((actual - predicted) / actual);
      counted++;
    }
  }
  return {
    mape: counted === 0 ? null : percentage / counted,
    mae: origins.length === 0 ? 0 : Math.round(absolute / origins.length),
    months: origins.length,
  };
}
