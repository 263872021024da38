export * from "./login-machine";
export * from "./login-messages";
export * from "./selectors";
