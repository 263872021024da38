import type { ComponentType } from "react";
import type { ChartProps } from "./chart-types";

/**
 * The chart chunk (Plotly), loaded once for the whole app: start-up asks for it
 * (shell/workspace-chunk.ts) and the chart door renders it (Chart.tsx). A module of its own, so that
 * start-up's chunk holds only this loader, not the door.
 */
let loadedPlot: ComponentType<ChartProps> | null = null;
let loading: Promise<{ default: ComponentType<ChartProps> }> | null = null;

export const loadPlot = () => {
  loading ??= import("./plot-view").then((module) => {
    loadedPlot = module.default;
    return module;
  });
  return loading;
};

/** The chart view once its chunk is there, else null. */
export const plotIfLoaded = () => loadedPlot;

/** Starts loading the chart chunk before the first chart needs it. */
export function preloadCharts() {
  void loadPlot();
}
