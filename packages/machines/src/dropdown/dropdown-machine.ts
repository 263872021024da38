import { assign, fromPromise, setup } from "xstate";
import { notProvided } from "../request-error";

export const dropdownNoResults = "No results";
/** docs/behaviour.md#timings-and-limits: scroll events are debounced by 100 ms. */
export const dropdownScrollDebounceMs = 100;
/** Typing in a dropdown that searches on the server asks once the text has rested this long. */
export const dropdownSearchDebounceMs = 150;
/** Rows a server search asks for at a time. */
export const dropdownPageSize = 50;

export interface DropdownOption {
  key: string;
  label: string;
  /** A second line (a code, a stock type). */
  detail?: string;
}

export interface DropdownLookupInput {
  text: string;
  /** Rows [startRow, startRow + rowLimit), counted from 1 as the lookup calls count them. */
  startRow: number;
  rowLimit: number;
}

export interface DropdownLookupOutput {
  options: DropdownOption[];
  /** Every match the server has for the text. */
  total: number;
}

export interface DropdownContext {
  options: DropdownOption[];
  filter: string;
  highlighted: number;
  selected: DropdownOption | null;
  scrollTop: number;
  /** Options come from the `lookup` actor, searched on the server as the user types. */
  remote: boolean;
  /** Matches the server has in all (remote dropdowns). */
  total: number;
  /** The text the options were found for (remote dropdowns). */
  searched: string | null;
}

export type DropdownEvent =
  | { type: "dropdown.open" }
  | { type: "dropdown.close" }
  | { type: "dropdown.toggle" }
  | { type: "dropdown.filter"; text: string }
  | { type: "dropdown.key"; key: "ArrowDown" | "ArrowUp" | "Enter" | "Escape" }
  | { type: "dropdown.select"; key: string | null }
  | { type: "dropdown.options"; options: DropdownOption[] }
  | { type: "dropdown.scroll"; scrollTop: number }
  | { type: "dropdown.loadMore" };

/** The options a filter leaves (case-insensitive, on the label); a remote dropdown's are the server's. */
export function dropdownVisible(
  context: Pick<DropdownContext, "options" | "filter"> & { remote?: boolean },
): DropdownOption[] {
  if (context.remote) return context.options;
  const term = context.filter.trim().toLowerCase();
  return term ? context.options.filter((o) => o.label.toLowerCase().includes(term)) : context.options;
}

/**
 * A dropdown (docs/behaviour.md#widgets-and-panels): open or closed, filtering with 'No results' when nothing
 * matches, keyboard navigation, and the scroll position settled 100 ms after the last scroll (e.g. to load
 * more).
 *
 * A remote dropdown (input `remote`) searches on the server through the `lookup` actor the app
 * provides (the lookup calls, docs/api.md#the-calls-by-area): when it opens, and 150 ms after the text last
 * changed; `dropdown.loadMore` appends the next page while the server has more. An accessible widget (React
 * Aria's ComboBox in the web app) may render it and keep the highlight itself; the machine holds the text,
 * the options, the searching and the choice.
 */
export const dropdownMachine = setup({
  types: {
    context: {} as DropdownContext,
    events: {} as DropdownEvent,
    input: {} as { options?: DropdownOption[]; remote?: boolean; selected?: DropdownOption | null },
  },
  actors: {
    lookup: fromPromise<DropdownLookupOutput, DropdownLookupInput>(async () => notProvided("lookup")),
  },
  actions: {
    /** Provided by the app: the list settled at a scroll position (debounced). */
    scrolled: (_, _params: { scrollTop: number }) => {},
  },
  guards: {
    remote: ({ context }) => context.remote,
    hasMore: ({ context }) => context.remote && context.options.length < context.total,
  },
  delays: { scrollDebounce: dropdownScrollDebounceMs, searchDebounce: dropdownSearchDebounceMs },
}).createMachine({
  id: "dropdown",
  context: ({ input }) => ({
    options: input.options ?? [],
    filter: "",
    highlighted: 0,
    selected: input.selected ?? null,
    scrollTop: 0,
    remote: input.remote ?? false,
    total: 0,
    searched: null,
  }),
  initial: "closed",
  on: {
    "dropdown.options": { actions: assign({ options: ({ event }) => event.options, highlighted: 0 }) },
    "dropdown.select": {
      target: ".closed",
      actions: assign({
        selected: ({ context, event }) =>
          event.key === null ? null : (context.options.find((o) => o.key === event.key) ?? context.selected),
      }),
    },
  },
  states: {
    closed: {
      entry: assign({ filter: "" }),
      on: {
        "dropdown.open": { target: "open" },
        "dropdown.toggle": { target: "open" },
        // Typing into a closed combo box opens it with the text.
        "dropdown.filter": {
          target: "open",
          actions: assign({ filter: ({ event }) => event.text }),
        },
      },
    },
    open: {
      type: "parallel",
      entry: assign({ highlighted: 0 }),
      on: {
        "dropdown.close": { target: "closed" },
        "dropdown.toggle": { target: "closed" },
        "dropdown.key": [
          { guard: ({ event }) => event.key === "Escape", target: "closed" },
          {
            guard: ({ context, event }) => event.key === "Enter" && dropdownVisible(context).length > 0,
            target: "closed",
            actions: assign({
              selected: ({ context }) => dropdownVisible(context)[context.highlighted] ?? null,
            }),
          },
          {
            guard: ({ event }) => event.key === "ArrowDown",
            actions: assign({
              highlighted: ({ context }) =>
                Math.min(context.highlighted + 1, Math.max(dropdownVisible(context).length - 1, 0)),
            }),
          },
          {
            guard: ({ event }) => event.key === "ArrowUp",
            actions: assign({ highlighted: ({ context }) => Math.max(context.highlighted - 1, 0) }),
          },
        ],
      },
      states: {
        scroll: {
          initial: "still",
          on: {
            "dropdown.scroll": {
              target: ".scrolling",
              actions: assign({ scrollTop: ({ event }) => event.scrollTop }),
            },
          },
          states: {
            still: {},
            scrolling: {
              after: {
                scrollDebounce: {
                  target: "still",
                  actions: { type: "scrolled", params: ({ context }) => ({ scrollTop: context.scrollTop }) },
                },
              },
            },
          },
        },
        search: {
          initial: "starting",
          on: {
            "dropdown.filter": [
              {
                guard: "remote",
                target: ".waiting",
                actions: assign({ filter: ({ event }) => event.text, highlighted: 0 }),
              },
              { actions: assign({ filter: ({ event }) => event.text, highlighted: 0 }) },
            ],
          },
          states: {
            starting: { always: [{ guard: "remote", target: "searching" }, { target: "idle" }] },
            idle: {
              on: { "dropdown.loadMore": { guard: "hasMore", target: "loadingMore" } },
            },
            waiting: { after: { searchDebounce: { target: "searching" } } },
            searching: {
              invoke: {
                src: "lookup",
                input: ({ context }) => ({ text: context.filter, startRow: 1, rowLimit: dropdownPageSize }),
                onDone: {
                  target: "idle",
                  actions: assign({
                    options: ({ event }) => event.output.options,
                    total: ({ event }) => event.output.total,
                    searched: ({ context }) => context.filter,
                    highlighted: 0,
                  }),
                },
                onError: { target: "failed", actions: assign({ options: [], total: 0 }) },
              },
            },
            loadingMore: {
              invoke: {
                src: "lookup",
                input: ({ context }) => ({
                  text: context.filter,
                  startRow: context.options.length + 1,
                  rowLimit: dropdownPageSize,
                }),
                onDone: {
                  target: "idle",
                  actions: assign({
                    options: ({ context, event }) => [...context.options, ...event.output.options],
                    total: ({ event }) => event.output.total,
                  }),
                },
                onError: { target: "failed" },
              },
            },
            failed: {},
          },
        },
      },
    },
  },
});

/** 'No results' when nothing matches (and, for a remote dropdown, nothing is being searched). */
export const selectDropdownMessage = (context: DropdownContext) =>
  dropdownVisible(context).length === 0 ? dropdownNoResults : null;
