export * from "./decompose";
