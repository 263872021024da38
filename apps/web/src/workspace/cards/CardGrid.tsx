import { cardPeriods } from "@varia/machines";
import { useCallback, useLayoutEffect, useRef } from "react";
import type { ViewFilter } from "../filters/view-filter";
import { Card } from "./Card";
import { cardPeriodOf, cardToggleOf, withoutCardChoices } from "./card-choice";
import type { AnyCardDefinition } from "./card-types";
import { type CardId, cardCatalogue } from "./catalogue";

/**
 * Asks for every card's data with the card's period and toggle (as the address names them, or their
 * first) and no search, before the cards
 * render (rendering a page of cards takes the main thread a while): the cards then take the answers
 * through the shared calls (card-call.ts).
 */
export function prefetchCards(layout: LayoutItem[], filter: ViewFilter) {
  for (const item of layout) {
    const card = cardCatalogue[item.card] as AnyCardDefinition;
    const period = cardPeriodOf(card, filter) ?? cardPeriods.defaultPeriod;
    const toggle = cardToggleOf(card.toggle, filter);
    card
      .load({ filter: withoutCardChoices(filter), period, toggle, search: "" }, new AbortController().signal)
      .catch(() => {});
  }
}

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
  // A card's own choice in the address (a segment) changes that card only.
  const filterKey = JSON.stringify(withoutCardChoices(filter));
  const prefetchedFor = useRef<string | null>(null);
  if (prefetchedFor.current !== filterKey) {
    prefetchedFor.current = filterKey;
    prefetchCards(layout, filter);
  }
  const shownFor = useRef(filterKey);
  useLayoutEffect(() => {
    // A new filter: every card loads again, and the mark waits for all of them.
    if (shownFor.current === filterKey) return;
    shownFor.current = filterKey;
    settled.current = new Map();
    marked.current = false;
    if (grid.current) grid.current.dataset.allDrawn = "false";
  }, [filterKey]);
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
