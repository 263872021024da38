export * from "./cube";
export * from "./decompose";
