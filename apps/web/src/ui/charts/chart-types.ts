/**
 * What a screen hands the chart door: series in the product's own terms (money in cents, category
 * labels, a key per point for drill-down). The door turns them into Plotly traces; no screen imports
 * plotly.js.
 */

/** How the values of a chart are written: money in cents (the default), counts, or ratios. */
export type ValueKind = "money" | "count" | "percent";

interface SeriesBase {
  /** The legend and hover name; unique within a chart. */
  name: string;
  categories: string[];
  values: (number | null)[];
  /** A key per point, handed to `onSelect` when the point is clicked. */
  keys?: (string | null)[];
  /** Series of one group share one legend entry (the first of the group shows it). */
  legendGroup?: string;
  showInLegend?: boolean;
}

export interface BarSeries extends SeriesBase {
  kind: "bar";
  /** One colour, or one per point. */
  color: string | string[];
}

export interface LineSeries extends SeriesBase {
  kind: "line";
  color: string;
  /** Draw markers at the points (default true). */
  markers?: boolean;
  /** A dashed line (a forecast). */
  dashed?: boolean;
}

/** A shaded band between two lines (an interval); `values` are its upper bounds. */
export interface BandSeries extends SeriesBase {
  kind: "band";
  lower: (number | null)[];
  color: string;
}

export interface WaterfallSeries extends SeriesBase {
  kind: "waterfall";
  /** 'total' bars stand on zero; 'step' bars move from the previous level. */
  measures: ("total" | "step")[];
}

export interface DonutSeries extends SeriesBase {
  kind: "donut";
  colors: string[];
}

export type Series = BarSeries | LineSeries | WaterfallSeries | DonutSeries | BandSeries;

export interface ChartProps {
  series: Series[];
  /** What the chart shows, in a sentence: the figure's accessible name. */
  title: string;
  valueKind?: ValueKind;
  /** Bars run left to right instead of bottom up. */
  horizontal?: boolean;
  /** Bars of several series stack (positive above zero, negative below). */
  stacked?: boolean;
  height?: number;
  showLegend?: boolean;
  /** A point with a key was clicked. */
  onSelect?: (key: string) => void;
  /** Plotly has drawn the chart (the first time, and after each change of data). */
  onDrawn?: () => void;
}
