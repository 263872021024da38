import { type ReactNode, useEffect, useId } from "react";
import { useFirstDrawingBox } from "../first-drawing";
import { useFormat } from "../format";
import {
  categoryFontSize,
  type FigureLayout,
  figureLayout,
  legendEntryExtra,
  legendFontSize,
  oneLine,
  textWidth,
} from "./chart-layout";
import { chartColors, chartFont } from "./chart-theme";
import type { ChartProps, DonutSeries, Series } from "./chart-types";

/*
 * A chart's first drawing, without Plotly (apps/web/README.md, "Heavy libraries behind one door
 * each"): plain SVG placed by the same layout Plotly gets (chart-layout.ts), with Plotly's own
 * geometry (a category's band, the gaps between bars, a pie from twelve o'clock anticlockwise), so
 * that Plotly drawing the chart in its place changes nothing a person would notice. It is not
 * interactive: pointing at it asks for Plotly at once (`onWanted`).
 */

const zeroLineColor = "#cbd5e1";

interface Frame {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** The chart's first drawing; `onDrawn` once it is on screen. */
export function SketchView({ onWanted, ...props }: ChartProps & { onWanted: () => void }) {
  const { box, width } = useFirstDrawingBox<HTMLDivElement>(onWanted);
  const { onDrawn } = props;
  useEffect(() => {
    if (width !== null) onDrawn?.();
  }, [width, onDrawn]);
  return (
    <div ref={box} className="chart__box" data-chart-sketch="true">
      {width !== null && <Sketch {...props} width={width} />}
    </div>
  );
}

function Sketch({ width, ...props }: ChartProps & { width: number }) {
  const format = useFormat();
  const figure = figureLayout(props, format, width);
  const { margin, height } = figure;
  const frame: Frame = { x0: margin.l, x1: width - margin.r, y0: margin.t, y1: height - margin.b };
  const donut = props.series.find((s): s is DonutSeries => s.kind === "donut");
  return (
    <svg width={width} height={height} role="presentation" style={{ display: "block" }}>
      <g fontFamily={chartFont.family} fill={chartFont.color}>
        {donut ? (
          <Donut series={donut} frame={frame} />
        ) : (
          <Axes props={props} figure={figure} frame={frame} />
        )}
        {figure.showLegend && <Legend series={props.series} figure={figure} width={width} />}
      </g>
    </svg>
  );
}

/** The value axis's scale: a value (in the chart's units) to px along the axis. */
function valueScale(figure: FigureLayout, from: number, to: number) {
  const [lo, hi] = figure.range;
  const span = hi - lo || 1;
  return (v: number) => from + ((v - lo) / span) * (to - from);
}

function Axes({ props, figure, frame }: { props: ChartProps; figure: FigureLayout; frame: Frame }) {
  const horizontal = props.horizontal ?? false;
  const { x0, x1, y0, y1 } = frame;
  const pad = figure.margin.pad;
  const value = horizontal ? valueScale(figure, x0, x1) : valueScale(figure, y1, y0);
  const categories = [...new Set(props.series.flatMap((s) => s.categories))];
  const band = ((horizontal ? y1 - y0 : x1 - x0) || 1) / Math.max(1, categories.length);
  const center = (i: number) => (horizontal ? y0 : x0) + (i + 0.5) * band;
  const index = new Map(categories.map((c, i) => [c, i]));
  const marks: ReactNode[] = [];
  // A rectangle between two values at a place along the category axis.
  const bar = (key: string, at: number, size: number, from: number, to: number, fill: string) => {
    const [a, b] = [value(from), value(to)].sort((p, q) => p - q) as [number, number];
    marks.push(
      horizontal ? (
        <rect key={key} x={a} y={at} width={Math.max(0, b - a)} height={size} fill={fill} />
      ) : (
        <rect key={key} x={at} y={a} width={size} height={Math.max(0, b - a)} fill={fill} />
      ),
    );
  };

  const bars = props.series.filter((s) => s.kind === "bar");
  const group = band * (1 - figure.barGap);
  const each = props.stacked ? group : group / Math.max(1, bars.length);
  const up = new Map<number, number>();
  const down = new Map<number, number>();
  bars.forEach((s, j) => {
    s.values.forEach((v, k) => {
      const i = index.get(s.categories[k]!);
      if (v === null || i === undefined) return;
      const at = center(i) - group / 2 + (props.stacked ? 0 : j * each);
      const colour = Array.isArray(s.color) ? (s.color[k] ?? chartColors.brand) : s.color;
      const stack = v >= 0 ? up : down;
      const base = props.stacked ? (stack.get(i) ?? 0) : 0;
      if (props.stacked) stack.set(i, base + v);
      bar(`${s.name}|${s.categories[k]}`, at, each, base, base + v, colour);
    });
  });

  for (const s of props.series) {
    if (s.kind === "waterfall") {
      const size = band * (1 - figure.waterfallGap);
      let level = 0;
      s.values.forEach((v, k) => {
        const i = index.get(s.categories[k]!);
        if (i === undefined) return;
        const total = s.measures[k] === "total";
        const from = total ? 0 : level;
        const to = total ? (v ?? 0) : level + (v ?? 0);
        const colour = total
          ? chartColors.brand
          : (v ?? 0) >= 0
            ? chartColors.positive
            : chartColors.negative;
        bar(`${s.name}|${s.categories[k]}`, center(i) - size / 2, size, from, to, colour);
        // The connector from this bar's level to the next bar.
        if (k < s.values.length - 1) {
          const y = value(to);
          const a = center(i) + size / 2;
          const b = center(i + 1) - size / 2;
          marks.push(
            <line
              key={`${s.name}|${s.categories[k]}|connector`}
              x1={a}
              x2={b}
              y1={y}
              y2={y}
              stroke={chartColors.grid}
              strokeWidth={1}
            />,
          );
        }
        level = to;
      });
    }
    if (s.kind === "band") {
      const upper: string[] = [];
      const lower: string[] = [];
      s.values.forEach((v, k) => {
        const i = index.get(s.categories[k]!);
        const low = s.lower[k];
        if (v === null || low === null || low === undefined || i === undefined) return;
        upper.push(`${center(i)},${value(v)}`);
        lower.unshift(`${center(i)},${value(low)}`);
      });
      if (upper.length > 1)
        marks.push(<polygon key={`${s.name}-band`} points={[...upper, ...lower].join(" ")} fill={s.color} />);
    }
  }
  for (const s of props.series) {
    if (s.kind !== "line") continue;
    const points = s.values.flatMap((v, k) => {
      const i = index.get(s.categories[k]!);
      return v === null || i === undefined ? [] : [[center(i), value(v)] as const];
    });
    marks.push(
      <polyline
        key={`${s.name}-line`}
        points={points.map(([x, y]) => `${x},${y}`).join(" ")}
        fill="none"
        stroke={s.color}
        strokeWidth={2.5}
        strokeDasharray={s.dashed ? "9,9" : undefined}
      />,
    );
    if (s.markers !== false)
      for (const [x, y] of points)
        marks.push(<circle key={`${s.name}|${x}|marker`} cx={x} cy={y} r={3.5} fill={s.color} />);
  }

  const lines = (text: string) => text.split("\n");
  // Bars standing on zero below an axis that starts above it are cut at the plot's edge, as Plotly's are.
  const clip = useId();
  return (
    <>
      <clipPath id={clip}>
        <rect x={x0} y={y0} width={Math.max(0, x1 - x0)} height={Math.max(0, y1 - y0)} />
      </clipPath>
      {figure.ticks.map((t, n) => {
        const at = value(t);
        return horizontal ? (
          <g key={t}>
            <line x1={at} x2={at} y1={y0} y2={y1} stroke={chartColors.grid} strokeWidth={1} />
            <text x={at} y={y1 + pad + chartFont.size} textAnchor="middle" fontSize={chartFont.size}>
              {figure.tickText[n]}
            </text>
          </g>
        ) : (
          <g key={t}>
            <line x1={x0} x2={x1} y1={at} y2={at} stroke={chartColors.grid} strokeWidth={1} />
            <text x={x0 - pad - 2} y={at} dy="0.35em" textAnchor="end" fontSize={chartFont.size}>
              {figure.tickText[n]}
            </text>
          </g>
        );
      })}
      {figure.range[0] < 0 &&
        figure.range[1] > 0 &&
        (horizontal ? (
          <line x1={value(0)} x2={value(0)} y1={y0} y2={y1} stroke={zeroLineColor} strokeWidth={1} />
        ) : (
          <line x1={x0} x2={x1} y1={value(0)} y2={value(0)} stroke={zeroLineColor} strokeWidth={1} />
        ))}
      <g clipPath={`url(#${clip})`}>{marks}</g>
      {categories.map((c, i) =>
        horizontal ? (
          <text
            key={c}
            x={x0 - pad - 2}
            y={center(i)}
            dy="0.35em"
            textAnchor="end"
            fontSize={categoryFontSize}
          >
            {c}
          </text>
        ) : figure.categoryFit.upright ? (
          <text
            key={c}
            x={center(i)}
            y={y1 + pad + 2}
            dy="0.35em"
            textAnchor="end"
            fontSize={figure.categoryFit.size}
            transform={`rotate(-90 ${center(i)} ${y1 + pad + 2})`}
          >
            {oneLine(c)}
          </text>
        ) : (
          <text
            key={c}
            x={center(i)}
            y={y1 + pad + figure.categoryFit.size + 2}
            textAnchor="middle"
            fontSize={figure.categoryFit.size}
          >
            {lines(c).map((line, n) => (
              <tspan key={line} x={center(i)} dy={n === 0 ? 0 : figure.categoryFit.size * 1.3}>
                {line}
              </tspan>
            ))}
          </text>
        ),
      )}
    </>
  );
}

/**
 * A slice's share as the chart writes it (plot-view.tsx's `texttemplate`, `.1%`): one decimal, as
 * the tables beside the donuts write it, so that a slice and its row say the same number.
 */
export function slicePercent(share: number): string {
  return `${(Math.round(share * 1000) / 10).toFixed(1)}%`;
}

/** White text on a dark slice, dark text on a light one. */
function textColour(fill: string): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(fill);
  if (!m) return "#fff";
  const [r, g, b] = [m[1], m[2], m[3]].map((h) => Number.parseInt(h!, 16) / 255) as [number, number, number];
  return 0.299 * r + 0.587 * g + 0.114 * b > 0.45 ? "#444" : "#fff";
}

function Donut({ series, frame }: { series: DonutSeries; frame: Frame }) {
  const cx = (frame.x0 + frame.x1) / 2;
  const cy = (frame.y0 + frame.y1) / 2;
  const outer = Math.max(0, Math.min(frame.x1 - frame.x0, frame.y1 - frame.y0) / 2);
  const inner = outer * 0.58;
  const values = series.values.map((v) => Math.max(0, v ?? 0));
  const total = values.reduce((a, b) => a + b, 0) || 1;
  // From twelve o'clock on, as Plotly draws these: an angle of 0 is up, growing to the right.
  const point = (angle: number, r: number) => [cx + r * Math.sin(angle), cy - r * Math.cos(angle)] as const;
  let start = 0;
  return (
    <>
      {values.map((v, k) => {
        const sweep = (v / total) * 2 * Math.PI;
        const end = start + Math.min(sweep, 2 * Math.PI - 1e-6);
        const large = sweep > Math.PI ? 1 : 0;
        const [ax, ay] = point(start, outer);
        const [bx, by] = point(end, outer);
        const [cx2, cy2] = point(end, inner);
        const [dx, dy] = point(start, inner);
        const path = `M${ax},${ay}A${outer},${outer} 0 ${large} 1 ${bx},${by}L${cx2},${cy2}A${inner},${inner} 0 ${large} 0 ${dx},${dy}Z`;
        const fill = series.colors[k] ?? chartColors.brand;
        const text = slicePercent(v / total);
        const middle = (start + end) / 2;
        const [tx, ty] = point(middle, (outer + inner) / 2);
        // Plotly writes a share in its slice, in a smaller size where it does not fit, or not at all.
        const room = sweep * ((outer + inner) / 2);
        const size = Math.min(
          chartFont.size,
          (chartFont.size * room) / (textWidth(text, chartFont.size) + 4),
        );
        start += sweep;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: slices keep their order
          <g key={k}>
            <path d={path} fill={fill} stroke="#fff" strokeWidth={2} />
            {v > 0 && size >= 8 && (
              <text x={tx} y={ty} dy="0.35em" textAnchor="middle" fontSize={size} fill={textColour(fill)}>
                {text}
              </text>
            )}
          </g>
        );
      })}
    </>
  );
}

/** The legend in rows at the bottom of the figure, wrapped as Plotly wraps it (chart-layout.ts). */
function Legend({ series, figure, width }: { series: Series[]; figure: FigureLayout; width: number }) {
  const shown = series.filter((s) => s.showInLegend !== false);
  const room = Math.max(120, width - figure.margin.l - figure.margin.r);
  const rows: { s: Series; x: number; row: number }[] = [];
  let row = 0;
  let used = 0;
  for (const s of shown) {
    const entry = textWidth(s.name, legendFontSize) + legendEntryExtra;
    if (used > 0 && used + entry > room) {
      row += 1;
      used = 0;
    }
    rows.push({ s, x: used, row });
    used += entry;
  }
  // Plotly's rows: the last one's middle 14 px above the figure's foot, each 29 px above the next.
  const count = row + 1;
  const middle = (r: number) => figure.height - 14 - (count - 1 - r) * 29;
  return (
    <>
      {rows.map(({ s, x, row: r }) => {
        const y = middle(r);
        const colour =
          s.kind === "bar"
            ? Array.isArray(s.color)
              ? (s.color[0] ?? chartColors.brand)
              : s.color
            : "color" in s
              ? s.color
              : chartColors.brand;
        return (
          <g key={s.name} transform={`translate(${figure.margin.l + x},${y})`}>
            {s.kind === "line" ? (
              <>
                <line x1={5} x2={35} y1={0} y2={0} stroke={colour} strokeWidth={2.5} />
                {s.markers !== false && <circle cx={20} cy={0} r={3.5} fill={colour} />}
              </>
            ) : (
              <rect x={12} y={-6} width={12} height={12} fill={colour} />
            )}
            <text x={40} dy="0.35em" fontSize={legendFontSize}>
              {s.name}
            </text>
          </g>
        );
      })}
    </>
  );
}
