import type { Format } from "../format/format";
import { chartFont, niceTicks } from "./chart-theme";
import type { ChartProps, Series, ValueKind } from "./chart-types";

/*
 * The layout of a chart, computed once for both of its drawings (apps/web/README.md, "Heavy
 * libraries behind one door each"): Plotly's (plot-view.tsx) and the first drawing without Plotly
 * (sketch-view.tsx). The value axis, its ticks, the margins the labels need and the legend's rows.
 */

export function writer(format: Format, kind: ValueKind) {
  switch (kind) {
    case "money":
      return (v: number) => format.money(v);
    case "count":
      return (v: number) => format.count(v);
    case "percent":
      return (v: number) => format.percent(v);
  }
}

/** Values as Plotly draws them: money in major units, the rest as given. */
export const scale = (kind: ValueKind) =>
  kind === "money" ? (v: number | null) => (v === null ? null : v / 100) : (v: number | null) => v;

/** Category labels may hold line breaks ("Services\nadded"): Plotly writes them with <br>. */
export const label = (text: string) => text.replace(/\n/g, "<br>");

/** The value range the bars and lines of a chart cover, with a waterfall's running levels. */
export function valueRange(series: Series[], stacked: boolean): [number, number] {
  let lo = 0;
  let hi = 0;
  const seen = (v: number) => {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  };
  if (stacked) {
    const up = new Map<string, number>();
    const down = new Map<string, number>();
    for (const s of series.filter((x) => x.kind === "bar")) {
      s.values.forEach((v, i) => {
        const c = s.categories[i]!;
        if (v === null) return;
        const side = v >= 0 ? up : down;
        side.set(c, (side.get(c) ?? 0) + v);
      });
    }
    for (const v of [...up.values(), ...down.values()]) seen(v);
  }
  for (const s of series) {
    if (s.kind === "waterfall") {
      let level = 0;
      let first = true;
      const levels: number[] = [];
      s.values.forEach((v, i) => {
        level = s.measures[i] === "total" ? (v ?? 0) : level + (v ?? 0);
        levels.push(level);
      });
      // A waterfall's steps are small against its totals: its axis starts near the lowest level.
      for (const l of levels) {
        if (first) {
          lo = l;
          hi = l;
          first = false;
        }
        seen(l);
      }
      const span = hi - lo || Math.abs(hi) || 1;
      return [lo - span * 0.35, hi + span * 0.15];
    }
    if (s.kind === "band") for (const v of s.lower) if (v !== null) seen(v);
    if (!stacked || s.kind === "line" || s.kind === "band") for (const v of s.values) if (v !== null) seen(v);
  }
  const pad = (hi - lo) * 0.08;
  return [lo < 0 ? lo - pad : 0, hi > 0 ? hi + pad : 0];
}

/** Category labels are a size smaller than the charts' font. */
export const categoryFontSize = 11;

let measureContext: CanvasRenderingContext2D | null | undefined;

/** The width in pixels of the widest line of `text` (lines split at <br>) in the charts' font. */
export function textWidth(text: string, size: number): number {
  measureContext ??= document.createElement("canvas").getContext("2d");
  const lines = text.split("<br>");
  if (!measureContext) return Math.max(...lines.map((line) => line.length)) * size * 0.62;
  measureContext.font = `${size}px ${chartFont.family}`;
  return Math.max(...lines.map((line) => measureContext!.measureText(line).width));
}

const lineCount = (labels: string[]) => Math.max(1, ...labels.map((l) => l.split("<br>").length));

/**
 * How the category labels under a vertical chart are written: at `size` px, and `upright` (turned
 * a quarter, on one line) when even the smaller size leaves them wider than their categories
 * (apps/web/README.md, "Narrow screens").
 */
export interface CategoryLabels {
  size: number;
  upright: boolean;
}

/** The sizes category labels are tried at, largest first, before they are turned upright. */
const categoryFontSizes = [categoryFontSize, 10, 9];

/** Category labels (lines split at <br>) in `band` px each: as they are, smaller, or upright. */
export function fitCategoryLabels(categories: string[], band: number): CategoryLabels {
  const room = band - 2;
  for (const size of categoryFontSizes)
    if (categories.every((c) => textWidth(c, size) <= room)) return { size, upright: false };
  return { size: 10, upright: true };
}

/** A category label on one line, as an upright label is written. */
export const oneLine = (text: string) => text.replace(/<br>|\n/g, " ");

/** The gap between a chart's plot and its right edge, in px. */
const rightMargin = 8;

/**
 * The margins the axes' labels need, measured before Plotly draws, and how a vertical chart's
 * category labels are written to fit the band each category has in `width` px. Plotly's automargin
 * measures the drawn labels and, when they need more room than the margins give, draws the whole
 * chart again (often twice): margins that already fit make the first drawing the last. Automargin
 * stays on, so a label that needs more room still gets it.
 */
export function axisMargins(valueTicks: string[], categories: string[], horizontal: boolean, width: number) {
  const slack = 14;
  if (horizontal) {
    const categoryWidth = Math.max(0, ...categories.map((c) => textWidth(c, categoryFontSize)));
    return {
      l: Math.ceil(categoryWidth) + slack,
      b: Math.ceil(chartFont.size * 1.3) + slack,
      labels: { size: categoryFontSize, upright: false },
    };
  }
  const l = Math.ceil(Math.max(0, ...valueTicks.map((t) => textWidth(t, chartFont.size)))) + slack;
  const labels = fitCategoryLabels(categories, (width - l - rightMargin) / Math.max(1, categories.length));
  const depth = labels.upright
    ? Math.max(0, ...categories.map((c) => textWidth(oneLine(c), labels.size)))
    : lineCount(categories) * labels.size * 1.3;
  return { l, b: Math.ceil(depth) + slack, labels };
}

/** Legend entries are written in this size; an entry's symbol and gaps take `legendEntryExtra` px. */
export const legendFontSize = 11;
export const legendEntryExtra = 46;
export const legendRowHeight = 26;

/** The rows a horizontal legend of these entries takes in `width` px (Plotly wraps it the same way). */
export function legendRows(names: string[], width: number): number {
  let rows = 1;
  let used = 0;
  for (const name of names) {
    const entry = textWidth(name, legendFontSize) + legendEntryExtra;
    if (used > 0 && used + entry > width) {
      rows += 1;
      used = 0;
    }
    used += entry;
  }
  return rows;
}

/**
 * The value axis's labels: money compactly ('$660K'), unless that writes two ticks alike or a tick
 * that is not zero as zero (a few cents: '-$0.2' twice, '-$0'), when they are written with their
 * cents (docs/behaviour.md, "Rounding on screen").
 */
export function valueTickText(ticks: number[], format: Format, kind: ValueKind): string[] {
  if (kind === "percent") return ticks.map((t) => format.percent(t, { decimals: 0 }));
  if (kind !== "money") return ticks.map((t) => format.count(t));
  const compact = ticks.map((t) => format.money(t, { compact: true }));
  const zero = format.money(0, { compact: true });
  const clear =
    new Set(compact).size === compact.length &&
    ticks.every((t) => t === 0 || format.money(Math.abs(t), { compact: true }) !== zero);
  return clear ? compact : ticks.map((t) => format.money(t, { decimals: 2 }));
}

/** Everything both drawings of a chart place by: in the chart's own units, as Plotly gets them. */
export function figureLayout(props: ChartProps, format: Format, width: number) {
  const kind = props.valueKind ?? "money";
  const write = writer(format, kind);
  const isDonut = props.series.some((s) => s.kind === "donut");
  const [lo, hi] = valueRange(props.series, props.stacked ?? false);
  const ticks = niceTicks(lo, hi, 5);
  const tickText = valueTickText(ticks, format, kind);
  const categoryLabels = [...new Set(props.series.flatMap((s) => s.categories.map(label)))];
  const margins = isDonut
    ? { l: 8, b: 8, labels: { size: categoryFontSize, upright: false } }
    : axisMargins(tickText, categoryLabels, props.horizontal ?? false, width);
  // The legend sits at the bottom of the figure, below the labels, in rows reserved for it.
  const showLegend = props.showLegend ?? false;
  const legendNames = props.series.filter((s) => s.showInLegend !== false).map((s) => s.name);
  const legendHeight = showLegend
    ? legendRows(legendNames, Math.max(120, width - margins.l - rightMargin)) * legendRowHeight + 12
    : 0;
  return {
    kind,
    write,
    isDonut,
    range: [lo, hi] as [number, number],
    ticks,
    tickText,
    categoryLabels,
    categoryFit: margins.labels,
    margin: { l: margins.l, r: rightMargin, t: 8, b: margins.b + legendHeight, pad: 4 },
    showLegend,
    legendNames,
    height: props.height ?? 280,
    /** Plotly's gap between the bars of adjacent categories (a fraction of a category's band). */
    barGap: 0.28,
    /** Plotly's default gap between a waterfall's bars. */
    waterfallGap: 0.2,
  };
}

export type FigureLayout = ReturnType<typeof figureLayout>;
