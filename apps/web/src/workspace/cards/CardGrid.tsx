import { useCallback, useEffect, useLayoutEffect, useRef } from "react";
import { preloadCharts } from "../../ui/charts/Chart";
import { preloadGrid } from "../../ui/grid/Grid";
import type { ViewFilter } from "../filters/view-filter";
import { Card } from "./Card";
import type { AnyCardDefinition } from "./card-types";
import { type CardId, cardCatalogue } from "./catalogue";

/** A page's layout: card ids and the columns (of 12) each takes; one column under 900 px. */
export interface LayoutItem {
  card: CardId;
  span: 2 | 3 | 4 | 6 | 8 | 12;
}

/**
 * Draws a page's cards from its layout, each loading on its own. When every card is on screen for
 * the current filter, it sets a performance mark (`name`), which the benchmarks read.
 */
export function CardGrid({
  layout,
  filter,
  markName,
}: {
  layout: LayoutItem[];
  filter: ViewFilter;
  markName: string;
}) {
  const settled = useRef(new Map<string, string>());
  const marked = useRef(false);
  const grid = useRef<HTMLDivElement>(null);
  const filterKey = JSON.stringify(filter);
  const shownFor = useRef(filterKey);
  useLayoutEffect(() => {
    // A new filter: every card loads again, and the mark waits for all of them.
    if (shownFor.current === filterKey) return;
    shownFor.current = filterKey;
    settled.current = new Map();
    marked.current = false;
    if (grid.current) grid.current.dataset.allDrawn = "false";
  }, [filterKey]);
  // The heavy chunks (Plotly, AG Grid) load once the cards' calls are on their way: evaluating them
  // takes the main thread, and is better done while the server answers.
  useEffect(() => {
    preloadCharts();
    preloadGrid();
  }, []);
  const onDrawn = useCallback(
    (id: string, view: "content" | "empty" | "error") => {
      settled.current.set(id, view);
      if (!marked.current && settled.current.size === layout.length) {
        marked.current = true;
        const views = [...settled.current.values()];
        performance.mark(markName, { detail: { allContent: views.every((v) => v === "content") } });
        if (grid.current) grid.current.dataset.allDrawn = "true";
      }
    },
    [layout.length, markName],
  );
  return (
    <div className="card-grid" ref={grid} data-all-drawn="false">
      {layout.map((item) => (
        <div key={item.card} className={`card-grid__cell card-grid__cell--${item.span}`}>
          <Card
            definition={cardCatalogue[item.card] as AnyCardDefinition}
            filter={filter}
            onDrawn={onDrawn}
          />
        </div>
      ))}
    </div>
  );
}
