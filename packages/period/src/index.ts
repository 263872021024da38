export * from "./actual-periods";
export * from "./format-period";
export * from "./parse-period";
export * from "./period";
export * from "./period-key";
export * from "./step-period";
