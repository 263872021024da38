import type { Contract } from "./define-contract";

/** The analytics calls of spec 7.3 (variance dashboards, KPIs, charts, details). */
export const analyticsContracts = {} as const satisfies Record<string, Contract>;
