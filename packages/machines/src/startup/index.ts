export * from "./selectors";
export * from "./startup-machine";
