import { assign, fromPromise, setup } from "xstate";
import { loginMessages } from "../login/login-messages";
import { notProvided, type RequestError, serverMessageOf, statusOf } from "../request-error";

/** The texts of the password pages (the request's two are the spec's, shared with the login view). */
export const passwordMessages = {
  resetRequested: loginMessages.resetRequested,
  resetFailed: loginMessages.resetFailed,
  mismatch: "The two passwords are not the same.",
  saveFailed: "An error occurred while saving your password, please try again",
  checkFailed: "The link could not be checked, please try again.",
} as const;

/**
 * The password-reset request (`/passwordReset`): the form locks while the request runs; then the
 * neutral confirmation (the form stays locked) or the error (the form opens again). The app
 * provides the actor `requestReset`.
 */
export const passwordRequestMachine = setup({
  types: {
    context: {} as { error: string | null; confirmation: string | null },
    events: {} as { type: "reset.submit"; email: string },
  },
  actors: {
    requestReset: fromPromise<void, { email: string }>(async () => notProvided("requestReset")),
  },
}).createMachine({
  id: "passwordRequest",
  context: { error: null, confirmation: null },
  initial: "idle",
  states: {
    idle: {
      on: { "reset.submit": { target: "requesting", actions: assign({ error: null }) } },
    },
    requesting: {
      invoke: {
        src: "requestReset",
        input: ({ event }) => ({ email: (event as { email: string }).email }),
        onDone: { target: "answered", actions: assign({ confirmation: passwordMessages.resetRequested }) },
        onError: { target: "idle", actions: assign({ error: passwordMessages.resetFailed }) },
      },
    },
    answered: { type: "final" },
  },
});

export type PasswordLinkKind = "reset" | "set";

export interface PasswordLinkInput {
  tokenID: string;
  secretToken: string;
  kind: PasswordLinkKind;
}

export interface PasswordLinkContext extends PasswordLinkInput {
  /** A message about the whole form (a failed save, a lockout). */
  error: string | null;
  /** The server's (or the form's own) reasons against the new password. */
  passwordErrors: string[];
  confirmationErrors: string[];
  /**
   * The account's e-mail address: from the check of a usable link (the form's hidden username field,
   * for password managers), and from the save (the sign-in form that follows is filled with it).
   */
  email: string | null;
}

export type PasswordLinkEvent =
  | { type: "password.submit"; password: string; confirmation: string }
  | { type: "link.retry" };

/** A refusal of the link itself (used, expired, unknown): the server names the field `secretToken`. */
function refusesLink(error: unknown): boolean {
  const errors = ((error as RequestError).result as { errors?: { field?: string }[] } | undefined)?.errors;
  return (
    statusOf(error) === 400 && (errors ?? []).some((e) => e.field === "secretToken" || e.field === "tokenID")
  );
}

function passwordErrorsOf(error: unknown): string[] {
  const errors = (
    (error as RequestError).result as { errors?: { field?: string; message: string }[] } | undefined
  )?.errors;
  return (errors ?? []).filter((e) => e.field === "password").map((e) => e.message);
}

/**
 * A reset or set-password link (`/passwordReset/{tokenID}/{secretToken}`, `/passwordSet/...`): the
 * link is checked first (`checkLink`, ResetPassword/IsTokenValid); a link that is used or expired
 * ends in `invalid`; otherwise the form takes the new password twice and `setPassword` sends it. A
 * password the server refuses shows its reasons on the field; a link refused at that point (used
 * meanwhile) ends in `invalid` too. A usable link's check answers the account's address (`email`),
 * which the form carries for password managers; once saved, `email` holds the save's answer, for
 * the sign-in form that follows.
 */
export const passwordLinkMachine = setup({
  types: {
    context: {} as PasswordLinkContext,
    input: {} as PasswordLinkInput,
    events: {} as PasswordLinkEvent,
  },
  actors: {
    checkLink: fromPromise<{ isValid: boolean; email?: string }, { tokenID: string; secretToken: string }>(
      async () => notProvided("checkLink"),
    ),
    setPassword: fromPromise<{ email: string }, { tokenID: string; secretToken: string; password: string }>(
      async () => notProvided("setPassword"),
    ),
  },
  guards: {
    isValid: (_, params: { valid: boolean }) => params.valid,
    mismatch: ({ event }) => event.type === "password.submit" && event.password !== event.confirmation,
    linkRefused: (_, params: { error: unknown }) => refusesLink(params.error),
  },
}).createMachine({
  id: "passwordLink",
  context: ({ input }) => ({
    ...input,
    error: null,
    passwordErrors: [],
    confirmationErrors: [],
    email: null,
  }),
  initial: "checking",
  states: {
    checking: {
      invoke: {
        src: "checkLink",
        input: ({ context }) => ({ tokenID: context.tokenID, secretToken: context.secretToken }),
        onDone: [
          {
            guard: { type: "isValid", params: ({ event }) => ({ valid: event.output.isValid }) },
            target: "ready",
            actions: assign({ email: ({ event }) => event.output.email ?? null }),
          },
          { target: "invalid" },
        ],
        onError: [
          // A malformed link is refused by the contract (400 naming the field): it is no link.
          {
            guard: { type: "linkRefused", params: ({ event }) => ({ error: event.error }) },
            target: "invalid",
          },
          {
            target: "checkFailed",
            actions: assign({
              error: ({ event }) =>
                statusOf(event.error) === 429
                  ? (serverMessageOf(event.error) ?? passwordMessages.checkFailed)
                  : passwordMessages.checkFailed,
            }),
          },
        ],
      },
    },
    checkFailed: {
      on: { "link.retry": { target: "checking", actions: assign({ error: null }) } },
    },
    invalid: { type: "final" },
    ready: {
      on: {
        "password.submit": [
          {
            guard: "mismatch",
            actions: assign({
              error: null,
              passwordErrors: [],
              confirmationErrors: [passwordMessages.mismatch],
            }),
          },
          { target: "saving", actions: assign({ error: null, passwordErrors: [], confirmationErrors: [] }) },
        ],
      },
    },
    saving: {
      invoke: {
        src: "setPassword",
        input: ({ context, event }) => ({
          tokenID: context.tokenID,
          secretToken: context.secretToken,
          password: (event as { password: string }).password,
        }),
        onDone: { target: "done", actions: assign({ email: ({ event }) => event.output.email }) },
        onError: [
          {
            guard: { type: "linkRefused", params: ({ event }) => ({ error: event.error }) },
            target: "invalid",
          },
          {
            target: "ready",
            actions: assign(({ event }) => {
              const passwordErrors = passwordErrorsOf(event.error);
              if (passwordErrors.length) return { passwordErrors };
              return {
                error:
                  statusOf(event.error) === 429
                    ? (serverMessageOf(event.error) ?? passwordMessages.saveFailed)
                    : passwordMessages.saveFailed,
              };
            }),
          },
        ],
      },
    },
    done: { type: "final" },
  },
});
