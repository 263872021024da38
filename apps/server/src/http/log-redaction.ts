/**
 * What the log may say of an address (docs/security.md, "Logs"): the value of a query key that
 * names a secret (token, secret, password, code, state, handoff) is replaced, and so is the secret
 * of a password link page's address (`/passwordReset/{id}/{secret}`, `/passwordSet/{id}/{secret}`).
 */
const secretQueryValue = /([?&;](?:[^=&#]*(?:token|secret|password|code|state|handoff)[^=&#]*)=)[^&#]*/gi;
const passwordLinkSecret = /^(\/(?:passwordReset|passwordSet)\/[^/?#]+\/)[^/?#]+/i;

/** Text with the values of secret-like query keys replaced by `[redacted]`. */
export function redactSecretQuery(text: string): string {
  return text.replace(secretQueryValue, "$1[redacted]");
}

/** A request's address as the log writes it: secret query values and a link's secret replaced. */
export function redactRequestUrl(url: string): string {
  return redactSecretQuery(url).replace(passwordLinkSecret, "$1[redacted]");
}
