export * from "./card-machine";
export * from "./selectors";
