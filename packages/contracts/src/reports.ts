import type { Contract } from "./define-contract";

/** Lookups, reports and help text of spec 7.4. */
export const reportContracts = {} as const satisfies Record<string, Contract>;
