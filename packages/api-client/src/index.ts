export * from "./api-error";
export * from "./clock";
export * from "./cookies";
export * from "./create-api-client";
export { buildQueryString, checkQuery } from "./query-string";
export { cacheLimits, RequestCache } from "./request-cache";
export { isRetryable, retryDelays, retryPolicy } from "./retry";
