export * from "./api-error";
export * from "./clock";
export * from "./cookies";
export * from "./create-api-client";
export { fillPath } from "./fill-path";
export { buildQueryString, checkQuery, encodeQueryValue } from "./query-string";
export { type FileResponse, fileNameOf, type ProgressListener } from "./read-response";
export { cacheLimits, RequestCache } from "./request-cache";
export { isRetryable, retryDelays, retryPolicy } from "./retry";
