import { createApiClient } from "@varia/api-client";

/** The one client of the web app: same origin, cookies and the XSRF header handled by the client. */
export const api = createApiClient({ baseUrl: "" });
