import type { ViewFilter } from "../filters/view-filter";
import type { CardToggle } from "./card-types";

/**
 * The filter parameters that are one card's choice (Revenue by segment's segment, a detail's donut
 * dimension) rather than the view's: the other cards neither reload nor redraw when one changes.
 */
export const cardChoiceParams = ["segment", "dimension"] as const satisfies readonly (keyof ViewFilter)[];

/** The view's filter without the cards' own choices: what every card's call depends on. */
export function withoutCardChoices(filter: ViewFilter): ViewFilter {
  return { ...filter, segment: null, dimension: null };
}

/**
 * A card's toggle as the address names it (`segment=salesperson`; matched without regard to case),
 * or its first option when the address names none or one the card does not offer.
 */
export function cardToggleOf(toggle: CardToggle | undefined, filter: ViewFilter): string | null {
  if (!toggle) return null;
  const named = toggle.param ? filter[toggle.param]?.toLowerCase() : undefined;
  const option = named ? toggle.options.find((o) => o.value.toLowerCase() === named) : undefined;
  return (option ?? toggle.options[0])?.value ?? null;
}

/** The address's value for a card's toggle: none for its first option (the default). */
export function cardToggleParamValue(toggle: CardToggle, value: string): string | null {
  return value === toggle.options[0]?.value ? null : value;
}
