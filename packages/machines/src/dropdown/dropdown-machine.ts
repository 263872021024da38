import { assign, setup } from "xstate";

export const dropdownNoResults = "No results";
/** Spec 9: scroll events are debounced by 100 ms. */
export const dropdownScrollDebounceMs = 100;

export interface DropdownOption {
  key: string;
  label: string;
}

export interface DropdownContext {
  options: DropdownOption[];
  filter: string;
  highlighted: number;
  selected: DropdownOption | null;
  scrollTop: number;
}

export type DropdownEvent =
  | { type: "dropdown.open" }
  | { type: "dropdown.close" }
  | { type: "dropdown.toggle" }
  | { type: "dropdown.filter"; text: string }
  | { type: "dropdown.key"; key: "ArrowDown" | "ArrowUp" | "Enter" | "Escape" }
  | { type: "dropdown.select"; key: string }
  | { type: "dropdown.options"; options: DropdownOption[] }
  | { type: "dropdown.scroll"; scrollTop: number };

/** The options a filter leaves (case-insensitive, on the label). */
export function dropdownVisible(context: Pick<DropdownContext, "options" | "filter">): DropdownOption[] {
  const term = context.filter.trim().toLowerCase();
  return term ? context.options.filter((o) => o.label.toLowerCase().includes(term)) : context.options;
}

/**
 * A dropdown (spec 2.6): open or closed, filtering with 'No results' when nothing matches, keyboard
 * navigation, and the scroll position settled 100 ms after the last scroll (e.g. to load more).
 */
export const dropdownMachine = setup({
  types: {
    context: {} as DropdownContext,
    events: {} as DropdownEvent,
    input: {} as { options: DropdownOption[] },
  },
  actions: {
    /** Provided by the app: the list settled at a scroll position (debounced). */
    scrolled: (_, _params: { scrollTop: number }) => {},
  },
  delays: { scrollDebounce: dropdownScrollDebounceMs },
}).createMachine({
  id: "dropdown",
  context: ({ input }) => ({
    options: input.options,
    filter: "",
    highlighted: 0,
    selected: null,
    scrollTop: 0,
  }),
  initial: "closed",
  on: { "dropdown.options": { actions: assign({ options: ({ event }) => event.options, highlighted: 0 }) } },
  states: {
    closed: {
      entry: assign({ filter: "" }),
      on: { "dropdown.open": { target: "open" }, "dropdown.toggle": { target: "open" } },
    },
    open: {
      entry: assign({ highlighted: 0 }),
      on: {
        "dropdown.close": { target: "closed" },
        "dropdown.toggle": { target: "closed" },
        "dropdown.filter": { actions: assign({ filter: ({ event }) => event.text, highlighted: 0 }) },
        "dropdown.select": {
          target: "closed",
          actions: assign({
            selected: ({ context, event }) => context.options.find((o) => o.key === event.key) ?? null,
          }),
        },
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
        "dropdown.scroll": {
          target: ".scrolling",
          actions: assign({ scrollTop: ({ event }) => event.scrollTop }),
        },
      },
      initial: "still",
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
  },
});

export const selectDropdownMessage = (context: DropdownContext) =>
  dropdownVisible(context).length === 0 ? dropdownNoResults : null;
