import { defaultHistoryPeriodCount, defaultTrendPeriodCount, type ViewFilter } from "../filters/view-filter";
import type { CardDefinition, CardToggle } from "./card-types";
import { periodOptionSets } from "./period-options";

/**
 * The filter parameters that are one card's choice rather than the view's: a toggle's (Revenue by
 * segment's segment, a detail's donut dimension, Variance by type's view, the trend's ad hoc, the
 * lost clients' order, the activity table's status), the trend's period and the months of the cards
 * of changes month by month (the year-end chart, the step month by month, a subject's history). The other cards neither
 * reload nor redraw when one changes.
 */
const neutral = {
  segment: null,
  dimension: null,
  typesView: null,
  trendInclude: null,
  lostOrder: null,
  activityStatus: null,
  trendPeriodCount: defaultTrendPeriodCount,
  historyPeriodCount: defaultHistoryPeriodCount,
} as const satisfies Partial<ViewFilter>;

export type CardChoiceParam = keyof typeof neutral;
export const cardChoiceParams = Object.keys(neutral) as CardChoiceParam[];

/** The view's filter without the cards' own choices: what every card's call depends on. */
export function withoutCardChoices(filter: ViewFilter): ViewFilter {
  return { ...filter, ...neutral };
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

/**
 * A card's period as the address names it (`trendPeriodCount=24`), or its first option when the
 * address names none or one the card does not offer; null for a card without period choices.
 */
export function cardPeriodOf(
  definition: Pick<CardDefinition, "periodOptions" | "periodParam">,
  filter: ViewFilter,
): number | null {
  if (!definition.periodOptions) return null;
  const options: readonly { value: number }[] = periodOptionSets[definition.periodOptions];
  const named = definition.periodParam ? filter[definition.periodParam] : undefined;
  return (options.find((o) => o.value === named) ?? options[0])?.value ?? null;
}
