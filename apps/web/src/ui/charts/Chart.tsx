import { lazy, Suspense, useCallback, useState } from "react";
import { useLibraryWanted } from "../first-drawing";
import { ChartTable } from "./chart-table";
import type { ChartProps } from "./chart-types";
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
