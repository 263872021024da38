import { assign, fromPromise, setup } from "xstate";
import { notProvided } from "../request-error";

/** Spec 8: the card's messages. */
export const cardMessages = {
  error: "An error occurred while displaying this card.",
  empty: "No information available to show.",
} as const;

/** Spec 4.5, 9: cards show 12 periods by default; expanding one under 12 sets 12, shrinking sets 8. */
export const cardPeriods = { defaultPeriod: 12, expanded: 12, afterShrink: 8 } as const;

export interface CardInput {
  /** A feature name for the analytics record (the card's heading). */
  name: string;
  period?: number;
  toggle?: string;
}

export interface CardContext {
  name: string;
  period: number;
  toggle: string | null;
  search: string;
  data: unknown;
}

export type CardEvent =
  | { type: "card.expand" }
  | { type: "card.shrink" }
  | { type: "card.toggle"; value: string }
  | { type: "card.search"; term: string }
  | { type: "card.period"; period: number }
  | { type: "card.retry" };

/**
 * An analysis card (spec 2.6, 4.5): loading, error, content (or empty), and expanded in a modal.
 * Toggle and search carry over between the card and its expanded copy. The app provides `load`
 * and the action `recordFeatureUsage` (analytics of expand and shrink, spec 7.7).
 */
export const cardMachine = setup({
  types: { context: {} as CardContext, events: {} as CardEvent, input: {} as CardInput },
  actors: {
    load: fromPromise<unknown, { period: number; toggle: string | null; search: string }>(async () =>
      notProvided("load"),
    ),
  },
  actions: {
    recordFeatureUsage: (_, _params: { feature: string; action: "Expand" | "Shrink" }) => {},
  },
}).createMachine({
  id: "card",
  context: ({ input }) => ({
    name: input.name,
    period: input.period ?? cardPeriods.defaultPeriod,
    toggle: input.toggle ?? null,
    search: "",
    data: null,
  }),
  initial: "loading",
  on: {
    "card.toggle": { target: ".loading", actions: assign({ toggle: ({ event }) => event.value }) },
    "card.period": { target: ".loading", actions: assign({ period: ({ event }) => event.period }) },
    "card.search": { actions: assign({ search: ({ event }) => event.term }) },
  },
  states: {
    loading: {
      invoke: {
        src: "load",
        input: ({ context }) => ({ period: context.period, toggle: context.toggle, search: context.search }),
        onDone: { target: "shown", actions: assign({ data: ({ event }) => event.output }) },
        onError: { target: "error" },
      },
    },
    error: { on: { "card.retry": { target: "loading" } } },
    shown: {
      initial: "inline",
      states: {
        inline: {
          on: {
            "card.expand": {
              target: "expanded",
              actions: [
                assign({ period: ({ context }) => Math.max(context.period, cardPeriods.expanded) }),
                {
                  type: "recordFeatureUsage",
                  params: ({ context }) => ({ feature: context.name, action: "Expand" }),
                },
              ],
            },
          },
        },
        expanded: {
          on: {
            "card.shrink": {
              target: "inline",
              actions: [
                assign({ period: cardPeriods.afterShrink }),
                {
                  type: "recordFeatureUsage",
                  params: ({ context }) => ({ feature: context.name, action: "Shrink" }),
                },
              ],
            },
          },
        },
      },
    },
  },
});
