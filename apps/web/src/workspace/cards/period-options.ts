/**
 * The period choices a card may offer (the option sets of the product's constants): a card names
 * one set in the catalogue; its first option is the default.
 */
export interface PeriodOption {
  label: string;
  value: number;
}

export const periodOptionSets = {
  /** Months, default 8: Default 8, 1 Year 12, 2 Years 24, 3 Years 36. */
  monthsDefault8: [
    { label: "Default", value: 8 },
    { label: "1 Year", value: 12 },
    { label: "2 Years", value: 24 },
    { label: "3 Years", value: 36 },
  ],
  /** Months, default 12: Default 12, 2 Years 24, 3 Years 36. */
  monthsDefault12: [
    { label: "Default", value: 12 },
    { label: "2 Years", value: 24 },
    { label: "3 Years", value: 36 },
  ],
  /** Weeks: Default 12, 24 Weeks 24, 36 Weeks 36. */
  weeks: [
    { label: "Default", value: 12 },
    { label: "24 Weeks", value: 24 },
    { label: "36 Weeks", value: 36 },
  ],
  /** Years: Default 12, 5 Years 5, 10 Years 10. */
  years: [
    { label: "Default", value: 12 },
    { label: "5 Years", value: 5 },
    { label: "10 Years", value: 10 },
  ],
} as const satisfies Record<string, readonly PeriodOption[]>;

export type PeriodOptionSetName = keyof typeof periodOptionSets;

/** How a period option reads on its card: 'Default (8 months)', '1 Year'. */
export function periodOptionLabel(option: PeriodOption, unit: "months" | "weeks" | "years" = "months") {
  return option.label === "Default" ? `Default (${option.value} ${unit})` : option.label;
}
