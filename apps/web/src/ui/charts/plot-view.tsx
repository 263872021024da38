import { type ReactNode, useLayoutEffect, useRef, useState } from "react";
import createPlotlyComponent from "react-plotly.js/factory";
import { useFormat } from "../format";
import { figureLayout, label, legendFontSize, oneLine, scale } from "./chart-layout";
import { chartColors, chartFont } from "./chart-theme";
import type { ChartProps, Series, ValueKind } from "./chart-types";
import { Plotly } from "./plotly-bundle";

const Plot = createPlotlyComponent(Plotly);

type Trace = Record<string, unknown>;

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
        // One decimal, as the tables beside the donuts (and the first drawing's slicePercent).
        texttemplate: "%{percent:.1%}",
        textposition: "inside",
        insidetextorientation: "horizontal",
        hovertemplate: "%{label}<br><b>%{customdata[0]}</b> (%{percent:.1%})<extra></extra>",
      };
  }
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
  const figure = figureLayout(props, format, width);
  const { kind, write, isDonut, margin, showLegend } = figure;
  const traces = props.series.flatMap((s) => traceOf(s, kind, write, props));
  const toPlot = scale(kind);
  const valueAxis = {
    range: figure.range.map(toPlot),
    tickvals: figure.ticks.map(toPlot),
    ticktext: figure.tickText,
    gridcolor: chartColors.grid,
    zerolinecolor: "#cbd5e1",
    fixedrange: true,
    automargin: true,
  };
  const categoryAxis = {
    fixedrange: true,
    automargin: true,
    tickfont: { size: figure.categoryFit.size },
    showgrid: false,
    ...(figure.categoryFit.upright
      ? {
          tickangle: -90,
          tickmode: "array",
          tickvals: figure.categoryLabels,
          ticktext: figure.categoryLabels.map(oneLine),
        }
      : props.series.some((s) => s.categories.some((c) => c.includes("\n")))
        ? { tickangle: 0 }
        : {}),
    ...(props.horizontal ? { autorange: "reversed" } : {}),
  };
  const layout = {
    autosize: true,
    height: figure.height,
    margin,
    paper_bgcolor: "rgba(0,0,0,0)",
    plot_bgcolor: "rgba(0,0,0,0)",
    font: chartFont,
    barmode: props.stacked ? "relative" : "group",
    bargap: figure.barGap,
    waterfallgap: figure.waterfallGap,
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
