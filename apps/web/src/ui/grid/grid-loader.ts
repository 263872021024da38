import type { ComponentType, ReactNode } from "react";
import type { DataGridProps } from "./grid-types";

/**
 * The grid chunk (AG Grid), loaded once for the whole app: start-up asks for it
 * (shell/workspace-chunk.ts) and the grid door renders it (Grid.tsx). A module of its own, so that
 * start-up's chunk holds only this loader, not the door and its column helpers.
 */
export type GridView = <Row>(props: DataGridProps<Row>) => ReactNode;
let loadedGrid: GridView | null = null;
let loading: Promise<{ default: ComponentType<DataGridProps<unknown>> }> | null = null;

export const loadGrid = () => {
  loading ??= import("./grid-view").then((module) => {
    loadedGrid = module.default as GridView;
    return module as { default: ComponentType<DataGridProps<unknown>> };
  });
  return loading;
};

/** The grid view once its chunk is there, else null. */
export const gridIfLoaded = () => loadedGrid;

/** Starts loading the grid chunk before the first grid needs it. */
export function preloadGrid() {
  void loadGrid();
}
