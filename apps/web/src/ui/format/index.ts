export * from "./Change";
export * from "./FormatContext";
export * from "./format";
