import { hmac, randomSecret, safeEqual } from "./secret-tokens";

export const xsrfCookieName = "XSRF-TOKEN";
export const xsrfHeaderName = "x-xsrf-token";

/**
 * A signed double-submit token bound to the session: `nonce.HMAC(key, session + nonce)`.
 * Sibling tenant sub-domains can plant a cookie, but not one signed for this session.
 */
export function issueXsrfToken(key: string, sessionId: string): string {
  const nonce = randomSecret(16);
  return `${nonce}.${hmac(key, `${sessionId}.${nonce}`)}`;
}

export function verifyXsrfToken(
  key: string,
  sessionId: string,
  cookie: string | undefined,
  header: string | undefined,
): boolean {
  if (!cookie || !header || !safeEqual(cookie, header)) return false;
  const [nonce, signature, extra] = header.split(".");
  if (!nonce || !signature || extra !== undefined) return false;
  return safeEqual(signature, hmac(key, `${sessionId}.${nonce}`));
}
