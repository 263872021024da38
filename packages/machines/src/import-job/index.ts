export * from "./import-job-machine";
export * from "./selectors";
