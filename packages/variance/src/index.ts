export * from "./charts";
export * from "./cube";
export * from "./decompose";
export * from "./forecast";
export * from "./json";
export * from "./kpis";
export * from "./query";
export * from "./rounding";
