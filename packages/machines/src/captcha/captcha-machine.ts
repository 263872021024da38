import { assign, fromPromise, setup } from "xstate";
import { notProvided } from "../request-error";

/** docs/behaviour.md#messages, #timings-and-limits: the captcha's alerts and its 800 ms wait. */
export const captchaMessages = {
  missing: "Failed to load the captcha service, please refresh the page and try again.",
  failed: "Failed to activate the captcha service, please refresh the page and try again.",
} as const;
export const captchaWaitMs = 800;

export interface CaptchaInput {
  action: string;
  host: string;
  /** Hosts containing this name skip the captcha entirely (development); "" names none. */
  developmentDomain: string;
  /** Whether an action may go on without a token when the captcha library is missing. */
  continueWithoutToken: boolean;
}

export interface CaptchaContext extends CaptchaInput {
  token: string | null;
  alert: string | null;
  proceed: boolean;
}

/**
 * Getting a captcha token before an action (docs/behaviour.md#messages, #timings-and-limits): skipped on the
 * development domain; waits at most 800 ms for the library, then goes on without a token where that is
 * allowed, or alerts and rejects. The app provides `waitForLibrary` (resolves when loaded) and `execute` (the
 * token). The machine ends with `{ proceed, token }`.
 */
export const captchaMachine = setup({
  types: {
    context: {} as CaptchaContext,
    input: {} as CaptchaInput,
    output: {} as { proceed: boolean; token: string | null },
  },
  actors: {
    waitForLibrary: fromPromise<void>(async () => notProvided("waitForLibrary")),
    execute: fromPromise<string, { action: string }>(async () => notProvided("execute")),
  },
  actions: { alert: (_, _params: { message: string }) => {} },
  guards: {
    isDevelopment: ({ context }) =>
      context.developmentDomain !== "" && context.host.includes(context.developmentDomain),
    mayContinue: ({ context }) => context.continueWithoutToken,
  },
  delays: { libraryWait: captchaWaitMs },
}).createMachine({
  id: "captcha",
  context: ({ input }) => ({ ...input, token: null, alert: null, proceed: false }),
  initial: "checking",
  states: {
    checking: { always: [{ guard: "isDevelopment", target: "proceed" }, { target: "waiting" }] },
    waiting: {
      invoke: { src: "waitForLibrary", onDone: { target: "executing" }, onError: { target: "missing" } },
      after: { libraryWait: { target: "missing" } },
    },
    missing: {
      always: [
        { guard: "mayContinue", target: "proceed" },
        {
          target: "rejected",
          actions: [
            assign({ alert: captchaMessages.missing }),
            { type: "alert", params: { message: captchaMessages.missing } },
          ],
        },
      ],
    },
    executing: {
      invoke: {
        src: "execute",
        input: ({ context }) => ({ action: context.action }),
        onDone: { target: "proceed", actions: assign({ token: ({ event }) => event.output }) },
        onError: {
          target: "rejected",
          actions: [
            assign({ alert: captchaMessages.failed }),
            { type: "alert", params: { message: captchaMessages.failed } },
          ],
        },
      },
    },
    proceed: { type: "final", entry: assign({ proceed: true }) },
    rejected: { type: "final" },
  },
  output: ({ context }) => ({ proceed: context.proceed, token: context.token }),
});
