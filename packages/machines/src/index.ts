export * from "./import-job";
export * from "./login";
export * from "./request-error";
export * from "./startup";
