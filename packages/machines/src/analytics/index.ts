export * from "./analytics-machine";
