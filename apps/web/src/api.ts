import { createApiClient } from "@varia/api-client";

/**
 * Told when the client forgets its cached answers (a call that changes data succeeded, a restore
 * finished, sign-in or sign-out): whatever keeps answers outside the client forgets them too.
 */
export const cacheCleared = new EventTarget();

/** The one client of the web app: same origin, cookies and the XSRF header handled by the client. */
export const api = createApiClient({
  baseUrl: "",
  onCacheCleared: () => cacheCleared.dispatchEvent(new Event("cleared")),
});
