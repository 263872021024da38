import { captchaMachine } from "@varia/machines";
import { createActor, fromPromise, waitFor } from "xstate";

/** reCAPTCHA v3's browser library, as far as the app uses it. */
interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

const meta = (name: string) =>
  document.querySelector(`meta[name="${name}"]`)?.getAttribute("content") || null;

/** What the server's page says of the captcha (RECAPTCHA_SITE_KEY, RECAPTCHA_SCRIPT_URL). */
const siteKey = meta("varia-recaptcha-site-key");
const scriptUrl = meta("varia-recaptcha-script");

let library: Promise<Grecaptcha> | null = null;

/** Loads the captcha library once; resolves when it is ready, rejects when its script fails. */
export function loadCaptcha(): Promise<Grecaptcha> {
  if (!siteKey || !scriptUrl) return Promise.reject(new Error("No captcha is configured"));
  library ??= new Promise<Grecaptcha>((resolve, reject) => {
    const script = document.createElement("script");
    const url = new URL(scriptUrl, window.location.href);
    url.searchParams.set("render", siteKey);
    script.src = url.href;
    script.async = true;
    script.onload = () => {
      const grecaptcha = (window as { grecaptcha?: Grecaptcha }).grecaptcha;
      if (grecaptcha) grecaptcha.ready(() => resolve(grecaptcha));
      else reject(new Error("The captcha script did not define grecaptcha"));
    };
    script.onerror = () => {
      library = null;
      reject(new Error("The captcha script did not load"));
    };
    document.head.append(script);
  });
  return library;
}

export interface CaptchaOutcome {
  proceed: boolean;
  token: string | null;
  /** The alert to show when the action may not go on. */
  alert: string | null;
}

/**
 * A captcha token for `action` (the captcha machine: at most 800 ms for the library, then the
 * action is refused with an alert, since the server refuses a call without a token when a captcha
 * is configured). Without a configured site key there is no captcha and the action goes on.
 */
export async function captchaToken(action: string): Promise<CaptchaOutcome> {
  if (!siteKey) return { proceed: true, token: null, alert: null };
  const actor = createActor(
    captchaMachine.provide({
      actors: {
        waitForLibrary: fromPromise(async () => {
          await loadCaptcha();
        }),
        execute: fromPromise(async ({ input }) =>
          (await loadCaptcha()).execute(siteKey, { action: input.action }),
        ),
      },
    }),
    {
      // No development domain: without a site key the captcha is off already.
      input: { action, host: window.location.hostname, developmentDomain: "", continueWithoutToken: false },
    },
  ).start();
  const done = await waitFor(actor, (s) => s.status === "done");
  return { proceed: done.context.proceed, token: done.context.token, alert: done.context.alert };
}
