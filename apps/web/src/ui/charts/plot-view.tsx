import { type ReactNode, useLayoutEffect, useRef, useState } from "react";
import createPlotlyComponent from "react-plotly.js/factory";
import { useFormat } from "../format";
import type { Format } from "../format/format";
import { chartColors, chartFont, niceTicks } from "./chart-theme";
import type { ChartProps, Series, ValueKind } from "./chart-types";
import { Plotly } from "./plotly-bundle";

const Plot = createPlotlyComponent(Plotly);

type Trace = Record<string, unknown>;

function writer(format: Format, kind: ValueKind) {
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
const scale = (kind: ValueKind) =>
  kind === "money" ? (v: number | null) => (v === null ? null : v / 100) : (v: number | null) => v;

/** Category labels may hold line breaks ("Services\nadded"): Plotly writes them with <br>. */
const label = (text: string) => text.replace(/\n/g, "<br>");

function traceOf(
  series: Series,
  kind: ValueKind,
  write: (v: number) => string,
  props: ChartProps,
): Trace | Trace[] {
  const toPlot = scale(kind);
  const categories = series.categories.map(label);
  const hover = series.values.map((v) => (v === null ? "" : write(v)));
  const common = {
    name: series.name,
    ...(series.legendGroup ? { legendgroup: series.legendGroup } : {}),
    ...(series.showInLegend === false ? { showlegend: false } : {}),
    customdata: series.categories.map((_, i) => [hover[i], series.keys?.[i] ?? ""]),
    hoverlabel: { font: { family: chartFont.family } },
  };
  switch (series.kind) {
    case "bar": {
      const values = series.values.map(toPlot);
      return {
        ...common,
        type: "bar",
        orientation: props.horizontal ? "h" : "v",
        ...(props.horizontal ? { y: categories, x: values } : { x: categories, y: values }),
        marker: { color: series.color },
        hovertemplate: `${props.horizontal ? "%{y}" : "%{x}"}<br><b>%{customdata[0]}</b><extra>${series.name}</extra>`,
      };
    }
    case "line":
      return {
        ...common,
        type: "scatter",
        mode: series.markers === false ? "lines" : "lines+markers",
        x: categories,
        y: series.values.map(toPlot),
        line: { color: series.color, width: 2.5, ...(series.dashed ? { dash: "dash" } : {}) },
        marker: { color: series.color, size: 7 },
        hovertemplate: `%{x}<br><b>%{customdata[0]}</b><extra>${series.name}</extra>`,
      };
    case "waterfall":
      return {
        ...common,
        type: "waterfall",
        x: categories,
        y: series.values.map(toPlot),
        measure: series.measures.map((m) => (m === "total" ? "absolute" : "relative")),
        increasing: { marker: { color: chartColors.positive } },
        decreasing: { marker: { color: chartColors.negative } },
        totals: { marker: { color: chartColors.brand } },
        connector: { line: { color: chartColors.grid, width: 1 } },
        hovertemplate: "%{x}<br><b>%{customdata[0]}</b><extra></extra>",
      };
    case "band": {
      // The lower bound as an invisible line, the upper filled down to it.
      const lowText = series.lower.map((v) => (v === null ? "" : write(v)));
      return [
        {
          type: "scatter",
          mode: "lines",
          x: categories,
          y: series.lower.map(toPlot),
          line: { width: 0, color: series.color },
          showlegend: false,
          hoverinfo: "skip",
          legendgroup: series.name,
        },
        {
          ...common,
          type: "scatter",
          mode: "lines",
          x: categories,
          y: series.values.map(toPlot),
          fill: "tonexty",
          fillcolor: series.color,
          line: { width: 0, color: series.color },
          legendgroup: series.name,
          customdata: series.categories.map((_, i) => [
            `${lowText[i]} – ${hover[i]}`,
            series.keys?.[i] ?? "",
          ]),
          hovertemplate: `%{x}<br><b>%{customdata[0]}</b><extra>${series.name}</extra>`,
        },
      ];
    }
    case "donut":
      return {
        ...common,
        type: "pie",
        hole: 0.58,
        labels: categories,
        values: series.values.map(toPlot),
        marker: { colors: series.colors, line: { color: "#fff", width: 2 } },
        sort: false,
        textinfo: "percent",
        textposition: "inside",
        insidetextorientation: "horizontal",
        hovertemplate: "%{label}<br><b>%{customdata[0]}</b> (%{percent})<extra></extra>",
      };
  }
}

/** The value range the bars and lines of a chart cover, with a waterfall's running levels. */
function valueRange(series: Series[], stacked: boolean): [number, number] {
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
const categoryFontSize = 11;

let measureContext: CanvasRenderingContext2D | null | undefined;

/** The width in pixels of the widest line of `text` (lines split at <br>) in the charts' font. */
function textWidth(text: string, size: number): number {
  measureContext ??= document.createElement("canvas").getContext("2d");
  const lines = text.split("<br>");
  if (!measureContext) return Math.max(...lines.map((line) => line.length)) * size * 0.62;
  measureContext.font = `${size}px ${chartFont.family}`;
  return Math.max(...lines.map((line) => measureContext!.measureText(line).width));
}

const lineCount = (labels: string[]) => Math.max(1, ...labels.map((l) => l.split("<br>").length));

/**
 * The margins the axes' labels need, measured before Plotly draws. Plotly's automargin measures
 * the drawn labels and, when they need more room than the margins give, draws the whole chart again
 * (often twice): margins that already fit make the first drawing the last. Automargin stays on, so a
 * label that needs more room (a rotated one) still gets it.
 */
function axisMargins(valueTicks: string[], categories: string[], horizontal: boolean) {
  const slack = 14;
  const valueWidth = Math.max(0, ...valueTicks.map((t) => textWidth(t, chartFont.size)));
  if (horizontal) {
    const categoryWidth = Math.max(0, ...categories.map((c) => textWidth(c, categoryFontSize)));
    return { l: Math.ceil(categoryWidth) + slack, b: Math.ceil(chartFont.size * 1.3) + slack };
  }
  return {
    l: Math.ceil(valueWidth) + slack,
    b: Math.ceil(lineCount(categories) * categoryFontSize * 1.3) + slack,
  };
}

/** Legend entries are written in this size; an entry's symbol and gaps take `legendEntryExtra` px. */
const legendFontSize = 11;
const legendEntryExtra = 46;
const legendRowHeight = 26;

/** The rows a horizontal legend of these entries takes in `width` px (Plotly wraps it the same way). */
function legendRows(names: string[], width: number): number {
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

/** The Plotly figure of a chart: the lazily loaded half of the chart door (see Chart.tsx). */
export default function PlotView(props: ChartProps) {
  return <ResizeToBox>{(width, graph) => <Figure {...props} width={width} graph={graph} />}</ResizeToBox>;
}

function Figure({
  width,
  graph,
  ...props
}: ChartProps & { width: number; graph: (div: HTMLElement) => void }) {
  const format = useFormat();
  const kind = props.valueKind ?? "money";
  const write = writer(format, kind);
  const traces = props.series.flatMap((s) => traceOf(s, kind, write, props));
  const isDonut = props.series.some((s) => s.kind === "donut");
  const [lo, hi] = valueRange(props.series, props.stacked ?? false);
  const ticks = niceTicks(lo, hi, 5);
  const tickText = ticks.map((t) =>
    kind === "money"
      ? format.money(t, { compact: true })
      : kind === "percent"
        ? format.percent(t, { decimals: 0 })
        : format.count(t),
  );
  const toPlot = scale(kind);
  const valueAxis = {
    range: [toPlot(lo), toPlot(hi)],
    tickvals: ticks.map(toPlot),
    ticktext: tickText,
    gridcolor: chartColors.grid,
    zerolinecolor: "#cbd5e1",
    fixedrange: true,
    automargin: true,
  };
  const categoryAxis = {
    fixedrange: true,
    automargin: true,
    tickfont: { size: categoryFontSize },
    showgrid: false,
    ...(props.series.some((s) => s.categories.some((c) => c.includes("\n"))) ? { tickangle: 0 } : {}),
    ...(props.horizontal ? { autorange: "reversed" } : {}),
  };
  const categoryLabels = [...new Set(props.series.flatMap((s) => s.categories.map(label)))];
  const margins = isDonut ? { l: 8, b: 8 } : axisMargins(tickText, categoryLabels, props.horizontal ?? false);
  // The legend sits at the bottom of the figure, below the labels, in rows reserved for it.
  const showLegend = props.showLegend ?? false;
  const legendNames = props.series.filter((s) => s.showInLegend !== false).map((s) => s.name);
  const legendHeight = showLegend
    ? legendRows(legendNames, Math.max(120, width - margins.l - 8)) * legendRowHeight + 12
    : 0;
  const layout = {
    autosize: true,
    height: props.height ?? 280,
    margin: { l: margins.l, r: 8, t: 8, b: margins.b + legendHeight, pad: 4 },
    paper_bgcolor: "rgba(0,0,0,0)",
    plot_bgcolor: "rgba(0,0,0,0)",
    font: chartFont,
    barmode: props.stacked ? "relative" : "group",
    bargap: 0.28,
    showlegend: showLegend,
    legend: {
      orientation: "h",
      yref: "container",
      y: 0,
      yanchor: "bottom",
      x: 0,
      font: { size: legendFontSize },
    },
    hoverlabel: { bgcolor: "#0f172a", bordercolor: "#0f172a", font: { color: "#fff", size: 12 } },
    separators: `${format.separators().decimal}${format.separators().group}`,
    ...(isDonut
      ? {}
      : props.horizontal
        ? { xaxis: valueAxis, yaxis: categoryAxis }
        : { xaxis: categoryAxis, yaxis: valueAxis }),
  };
  const onClick = (event: { points?: { customdata?: unknown }[] }) => {
    const data = event.points?.[0]?.customdata as [string, string] | undefined;
    const key = Array.isArray(data) ? data[1] : undefined;
    if (key && props.onSelect) props.onSelect(key);
  };
  return (
    <Plot
      data={traces}
      layout={layout}
      config={{ displayModeBar: false, displaylogo: false }}
      useResizeHandler
      style={{ width: "100%", height: layout.height, cursor: props.onSelect ? "pointer" : undefined }}
      onClick={onClick}
      onInitialized={(_, div) => {
        graph(div);
        props.onDrawn?.();
      }}
      onUpdate={() => props.onDrawn?.()}
    />
  );
}

/**
 * The chart's box, measured before the chart draws (its legend's rows depend on the width), and the
 * chart redrawn at the box's new width when the box changes without the window (the side menu
 * collapsed, the navigation map opened beside the page): Plotly only follows the window.
 */
function ResizeToBox({
  children,
}: {
  children: (width: number, graph: (div: HTMLElement) => void) => ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  const graph = useRef<HTMLElement | null>(null);
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    let seen = element.clientWidth;
    setWidth(seen);
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (element.clientWidth === seen) return;
      seen = element.clientWidth;
      setWidth(seen);
      if (graph.current) void Plotly.Plots.resize(graph.current);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={box} className="chart__box">
      {width === null
        ? null
        : children(width, (div) => {
            graph.current = div;
          })}
    </div>
  );
}
