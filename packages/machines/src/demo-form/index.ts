export * from "./demo-form-machine";
