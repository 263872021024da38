import { lazy, Suspense, useCallback, useState } from "react";
import { useLibraryWanted } from "../first-drawing";
import { useFormat } from "../format";
import type { ChartProps, ValueKind } from "./chart-types";
import { loadPlot, plotIfLoaded } from "./plot-loader";
import { SketchView } from "./sketch-view";

export { chartColors } from "./chart-theme";
export type * from "./chart-types";

/**
 * Once the Plotly half is loaded (plot-loader.ts), charts render it directly: a lazy component
 * suspends first, and React holds a suspended boundary's content back for 300 ms after its fallback
 * shows, which every chart of a page would wait for.
 */
const LazyPlotView = lazy(loadPlot);

/**
 * The chart door: every chart of the app is drawn here, by Plotly loaded lazily in a chunk of its
 * own (the core with bar, waterfall, scatter and pie only). A chart is a figure named by its title;
 * its numbers are also in a table for screen readers, since the drawing is hidden from them.
 *
 * A chart that renders before Plotly is loaded is drawn at once without it (sketch-view.tsx), and
 * Plotly is asked for when the page is next idle, or at once when the chart is pointed at; Plotly
 * then draws the chart hidden behind that drawing and takes its place (apps/web/README.md, "Heavy
 * libraries behind one door each").
 */
export function Chart(props: ChartProps) {
  const height = props.height ?? 280;
  const [sketched] = useState(() => plotIfLoaded() === null);
  const [wanted, want] = useLibraryWanted(!sketched);
  const [plotDrawn, setPlotDrawn] = useState(false);
  const { onDrawn } = props;
  const plotDrawnFirst = useCallback(() => {
    setPlotDrawn(true);
    onDrawn?.();
  }, [onDrawn]);
  const PlotView = plotIfLoaded() ?? LazyPlotView;
  const showSketch = sketched && !plotDrawn;
  return (
    <figure className="chart" aria-label={props.title}>
      <div aria-hidden="true" className="chart__plot" style={{ minHeight: height }}>
        {showSketch && <SketchView {...props} onWanted={want} />}
        {wanted && (
          <div className={showSketch ? "chart__behind" : undefined}>
            <Suspense fallback={sketched ? null : <div className="chart__loading" style={{ height }} />}>
              <PlotView {...props} onDrawn={sketched ? plotDrawnFirst : onDrawn} />
            </Suspense>
          </div>
        )}
      </div>
      <ChartTable {...props} />
    </figure>
  );
}

/**
 * The chart's numbers as a table, for screen readers. A point that leads somewhere when clicked (a
 * key and `onSelect`) is a link in it, so the keyboard reaches what the mouse does: the row's name
 * when every point of the row leads to the same place (a month of a stacked chart, a step of a
 * waterfall), else each value. While a link of it has the focus, the table shows under the chart, so
 * the focus is never out of sight.
 */
function ChartTable({ series, title, valueKind = "money", onSelect }: ChartProps) {
  const format = useFormat();
  const write = (v: number | null) => {
    if (v === null) return "";
    const kind: ValueKind = valueKind;
    return kind === "money" ? format.money(v) : kind === "percent" ? format.percent(v) : format.count(v);
  };
  // A band is a range: its lower and upper bounds ('$908,805 – $946,806'), not its upper alone.
  const cellText = (s: ChartProps["series"][number], i: number) => {
    const value = s.values[i] ?? null;
    if (s.kind !== "band") return write(value);
    const lower = s.lower[i] ?? null;
    if (value === null || lower === null || lower === value) return write(value);
    return `${write(lower)} – ${write(value)}`;
  };
  const categories = [...new Set(series.flatMap((s) => s.categories))];
  const text = (category: string) => category.replace(/\n/g, " ");
  const keyOf = (s: ChartProps["series"][number], category: string) => {
    const i = s.categories.indexOf(category);
    return i < 0 || !onSelect ? null : (s.keys?.[i] ?? null);
  };
  const link = (key: string | null, content: string) =>
    key && onSelect && content ? (
      <a
        href={key}
        onClick={(event) => {
          if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
          event.preventDefault();
          onSelect(key);
        }}
      >
        {content}
      </a>
    ) : (
      content
    );
  // A table sizes itself to its content whatever its width: the hiding is done by a box around it.
  return (
    <div className="chart__data">
      <table>
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">Category</th>
            {series.map((s) => (
              <th scope="col" key={s.name}>
                {s.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {categories.map((c) => {
            const keys = new Set(series.map((s) => keyOf(s, c)).filter((k) => k !== null));
            const rowKey = keys.size === 1 ? [...keys][0]! : null;
            return (
              <tr key={c}>
                <th scope="row">{link(rowKey, text(c))}</th>
                {series.map((s) => {
                  const i = s.categories.indexOf(c);
                  const value = i < 0 ? "" : cellText(s, i);
                  return <td key={s.name}>{rowKey ? value : link(keyOf(s, c), value)}</td>;
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
