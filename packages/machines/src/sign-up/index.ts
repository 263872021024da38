export * from "./sign-up-machine";
