export * from "./dropdown-machine";
