export * from "./selectors";
export * from "./workspace-machine";
