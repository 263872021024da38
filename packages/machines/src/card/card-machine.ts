import { assign, fromPromise, raise, setup } from "xstate";
import { notProvided } from "../request-error";

/** The card's messages (docs/behaviour.md#cards-and-pop-ups). */
export const cardMessages = {
  error: "An error occurred while displaying this card.",
  empty: "No information available to show.",
} as const;

/**
 * docs/behaviour.md#cards-and-pop-ups: cards show 12 periods by default; expanding one under 12 sets 12,
 * shrinking sets 8.
 */
export const cardPeriods = { defaultPeriod: 12, expanded: 12, afterShrink: 8 } as const;

/** A card whose search asks the server again waits this long after the last keystroke. */
export const cardSearchDebounceMs = 300;

/** The feature-usage actions a card records (docs/api.md#analytics-records). */
export type CardFeatureAction = "Expand" | "Shrink" | "Help shown" | "Help hidden";

export interface CardInput {
  /** A feature name for the analytics record (the card's heading). */
  name: string;
  period?: number;
  toggle?: string;
  /**
   * What the card's call depends on besides its own period, toggle and search: for a dashboard
   * card, the page's filter (compared by value: a new value reloads the card).
   */
  params?: unknown;
  /** The search term is part of the card's call: a new term reloads, 300 ms after the last change. */
  searchReloads?: boolean;
}

export interface CardContext {
  name: string;
  period: number;
  toggle: string | null;
  search: string;
  params: unknown;
  searchReloads: boolean;
  /** The last answer of `load`; null when there is nothing to show. */
  data: unknown;
}

export interface CardLoadInput {
  period: number;
  toggle: string | null;
  search: string;
  params: unknown;
}

export type CardEvent =
  | { type: "card.expand" }
  | { type: "card.shrink" }
  | { type: "card.toggle"; value: string }
  | { type: "card.search"; term: string }
  | { type: "card.period"; period: number }
  | { type: "card.params"; params: unknown }
  | { type: "card.retry" }
  | { type: "card.reload" }
  | { type: "card.showHelp" }
  | { type: "card.hideHelp" };

/** Two values of `params` are the same when their JSON is (filters are plain data). */
function sameParams(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/**
 * An analysis card (docs/behaviour.md#cards-and-pop-ups), in three independent regions:
 * - `data`: loading, error (`cardMessages`; `card.retry`), shown (content or empty);
 * - `view`: inline or expanded in a modal. Expanding a card whose period is under 12 sets 12,
 *   shrinking sets 8; a period that changes reloads the data while the view stays where it is;
 * - `help`: the help text hidden or shown.
 * Toggle and search live in the one context, so they carry over between the card and its expanded
 * copy. A new toggle, period or params reloads; a new search term reloads 300 ms after the last
 * change when the input says the search is part of the call (`searchReloads`), and otherwise is
 * only kept (the renderer filters with it). The app provides `load` and the action
 * `recordFeatureUsage` (expand, shrink, help shown and hidden: docs/api.md#analytics-records).
 */
export const cardMachine = setup({
  types: { context: {} as CardContext, events: {} as CardEvent, input: {} as CardInput },
  actors: {
    load: fromPromise<unknown, CardLoadInput>(async () => notProvided("load")),
  },
  actions: {
    recordFeatureUsage: (_, _params: { feature: string; action: CardFeatureAction }) => {},
    reload: raise({ type: "card.reload" }),
  },
  delays: { searchDebounce: cardSearchDebounceMs },
  guards: {
    periodBelowExpanded: ({ context }) => context.period < cardPeriods.expanded,
    periodNotAfterShrink: ({ context }) => context.period !== cardPeriods.afterShrink,
    paramsChanged: ({ context, event }) =>
      event.type === "card.params" && !sameParams(context.params, event.params),
    searchReloads: ({ context }) => context.searchReloads,
  },
}).createMachine({
  id: "card",
  type: "parallel",
  context: ({ input }) => ({
    name: input.name,
    period: input.period ?? cardPeriods.defaultPeriod,
    toggle: input.toggle ?? null,
    search: "",
    params: input.params ?? null,
    searchReloads: input.searchReloads ?? false,
    data: null,
  }),
  states: {
    data: {
      initial: "loading",
      on: {
        "card.toggle": { target: ".loading", actions: assign({ toggle: ({ event }) => event.value }) },
        "card.period": { target: ".loading", actions: assign({ period: ({ event }) => event.period }) },
        "card.params": {
          guard: "paramsChanged",
          target: ".loading",
          actions: assign({ params: ({ event }) => event.params }),
        },
        "card.reload": { target: ".loading" },
        "card.search": [
          {
            guard: "searchReloads",
            target: ".searching",
            reenter: true,
            actions: assign({ search: ({ event }) => event.term }),
          },
          { actions: assign({ search: ({ event }) => event.term }) },
        ],
      },
      states: {
        searching: { after: { searchDebounce: { target: "loading" } } },
        loading: {
          invoke: {
            src: "load",
            input: ({ context }) => ({
              period: context.period,
              toggle: context.toggle,
              search: context.search,
              params: context.params,
            }),
            onDone: { target: "shown", actions: assign({ data: ({ event }) => event.output ?? null }) },
            onError: { target: "error", actions: assign({ data: null }) },
          },
        },
        error: { on: { "card.retry": { target: "loading" } } },
        shown: {},
      },
    },
    view: {
      initial: "inline",
      states: {
        inline: {
          on: {
            "card.expand": [
              {
                guard: "periodBelowExpanded",
                target: "expanded",
                actions: [
                  assign({ period: cardPeriods.expanded }),
                  "reload",
                  { type: "recordFeatureUsage", params: ({ context }) => usage(context, "Expand") },
                ],
              },
              {
                target: "expanded",
                actions: { type: "recordFeatureUsage", params: ({ context }) => usage(context, "Expand") },
              },
            ],
          },
        },
        expanded: {
          on: {
            "card.shrink": [
              {
                guard: "periodNotAfterShrink",
                target: "inline",
                actions: [
                  assign({ period: cardPeriods.afterShrink }),
                  "reload",
                  { type: "recordFeatureUsage", params: ({ context }) => usage(context, "Shrink") },
                ],
              },
              {
                target: "inline",
                actions: { type: "recordFeatureUsage", params: ({ context }) => usage(context, "Shrink") },
              },
            ],
          },
        },
      },
    },
    help: {
      initial: "hidden",
      states: {
        hidden: {
          on: {
            "card.showHelp": {
              target: "shown",
              actions: { type: "recordFeatureUsage", params: ({ context }) => usage(context, "Help shown") },
            },
          },
        },
        shown: {
          on: {
            "card.hideHelp": {
              target: "hidden",
              actions: {
                type: "recordFeatureUsage",
                params: ({ context }) => usage(context, "Help hidden"),
              },
            },
          },
        },
      },
    },
  },
});

function usage(context: CardContext, action: CardFeatureAction) {
  return { feature: context.name, action };
}
