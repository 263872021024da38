import type { CallInput } from "@varia/api-client";
import type { CardHelpKey, Contract, ResponseOf } from "@varia/contracts";
import type { ComponentType } from "react";
import type { Format } from "../../ui/format/format";
import type { ViewFilter } from "../filters/view-filter";
import type { CardChoiceParam } from "./card-choice";
import type { PeriodOptionSetName } from "./period-options";

/** What a card's query is built from: the page's filter and the card's own period, toggle and search. */
export interface CardQueryContext {
  filter: ViewFilter;
  period: number;
  toggle: string | null;
  search: string;
}

/** What a renderer is given. */
export interface CardRenderProps<D> extends CardQueryContext {
  data: D;
  /**
   * The page's filter with the cards' own choices (card-choice.ts), which `filter` leaves out: what
   * a link to another view starts from, so that the view opened keeps them (the trend's and the
   * history's months, the trend's ad hoc, ...).
   */
  linkFilter: ViewFilter;
  expanded: boolean;
  format: Format;
  /** Sets the card's search term (it carries over to the expanded copy). */
  onSearch: (term: string) => void;
  /** Goes to another view (a drill-down link); the location shown now is ignored. */
  navigate: (href: string) => void;
  /** The route of the page the card is on (a month of a trend opens the same page for that month). */
  here: string;
}

/** The filter parameters that carry a card's period (card-choice.ts). */
export type PeriodParam = "trendPeriodCount" | "historyPeriodCount";

export interface CardToggle {
  label: string;
  options: { value: string; label: string }[];
  /** Side by side (default), or a drop-down where the card is narrow. */
  display?: "segmented" | "select";
  /**
   * The filter parameter of the address that carries the choice (`segment`, `dimension`,
   * `typesView`, ...: card-choice.ts), so that a reload, a shared link and the browser's Back and
   * Forward keep it (apps/web/README.md, "The card system"). Without one, the choice lasts as long
   * as the card.
   */
  param?: Exclude<CardChoiceParam, PeriodParam>;
}

/**
 * One card of the catalogue: a call and a renderer, with its heading, the key of its help text, the
 * period choices it offers and whether it expands. Adding a card is a row of the catalogue and a
 * renderer; a page lists card ids in a layout.
 */
export interface CardDefinition<D = unknown> {
  id: string;
  heading: string;
  /** The heading in a Margin view, when the heading names revenue ('Margin by segment'). */
  marginHeading?: string;
  /** The key of its help text (GET helpText?key); the server has a text for each of `cardHelpKeys`. */
  helpKey: CardHelpKey;
  /** The call it makes (the first, when it makes more than one). */
  contract: Contract;
  /** Calls the server; null when there is nothing to show. */
  load: (context: CardQueryContext, signal: AbortSignal) => Promise<D | null>;
  render: ComponentType<CardRenderProps<D>>;
  /** The period choices (none: the card shows the page's two months only). */
  periodOptions?: PeriodOptionSetName;
  /** The filter parameter of the address that carries the period shown, as `param` does a toggle's. */
  periodParam?: PeriodParam;
  toggle?: CardToggle;
  /** A search box in the card's header (the term filters the card's rows on the server). */
  searchable?: boolean;
  expandable: boolean;
  /** A line under the heading, e.g. the months shown. */
  subtitle?: (context: CardQueryContext) => string;
}

/** The call of a card: how its contract's input is built from the filter, and what of the answer it shows. */
export interface CardCall<C extends Contract, D> {
  contract: C;
  input: (context: CardQueryContext) => CallInput<C>;
  /** The part of the answer shown; null when there is nothing to show. */
  select: (response: ResponseOf<C>, context: CardQueryContext) => D | null;
}

/** A card of any data type (what a catalogue and a layout hold; each card's own type stays inside it). */
// biome-ignore lint/suspicious/noExplicitAny: a catalogue holds cards of every data type
export type AnyCardDefinition = CardDefinition<any>;
