import type { ServerConfig } from "../config";

export type CaptchaResult = { ok: true; skipped: boolean } | { ok: false; reason: string };

/**
 * reCAPTCHA v3, checked server-side against the verify endpoint when `RECAPTCHA_SECRET` is set
 * (the endpoint is configurable, for tests and proxies); skipped when it is not.
 */
export async function verifyCaptcha(
  config: Pick<ServerConfig, "recaptcha">,
  token: string | null | undefined,
  expectedAction: string,
  remoteIp?: string,
): Promise<CaptchaResult> {
  const recaptcha = config.recaptcha;
  if (!recaptcha) return { ok: true, skipped: true };
  if (!token) return { ok: false, reason: "missing token" };
  const form = new URLSearchParams({ secret: recaptcha.secret, response: token });
  if (remoteIp) form.set("remoteip", remoteIp);
  let answer: { success?: boolean; score?: number; action?: string; "error-codes"?: string[] };
  try {
    const response = await fetch(recaptcha.verifyUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form,
      signal: AbortSignal.timeout(5000),
    });
    if (!response.ok) return { ok: false, reason: `verify endpoint answered ${response.status}` };
    answer = (await response.json()) as typeof answer;
  } catch (error) {
    return { ok: false, reason: `verify endpoint unreachable: ${(error as Error).message}` };
  }
  if (answer.success !== true) return { ok: false, reason: (answer["error-codes"] ?? ["failed"]).join(",") };
  if (answer.action !== undefined && answer.action !== expectedAction)
    return { ok: false, reason: `action ${answer.action}` };
  if (typeof answer.score === "number" && answer.score < recaptcha.minScore)
    return { ok: false, reason: `score ${answer.score}` };
  return { ok: true, skipped: false };
}
