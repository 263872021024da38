import type { LoginRequest, LoginResponse } from "@varia/contracts";
import { assign, fromPromise, setup } from "xstate";
import { notProvided } from "../request-error";
import { loginErrorMessage, loginMessages } from "./login-messages";

export type LoginMode = "default" | "ForgotPassword" | "SingleSignOn" | "AuthenticateMultiFactor";

/** The animated character (docs/behaviour.md#login). */
export type CharacterPose = "idle" | "eyesCovered" | "headShake" | "standing";

/** How long the character's success animation plays before the page reloads. */
export const loginTimings = { successAnimationMs: 1200, headShakeMs: 600 } as const;

export interface LoginInput {
  /** The address on load: /sso and /forgot-password pick their modes (docs/behaviour.md#login). */
  pathname: string;
  /** The login 'error' query parameter, shown as the error message. */
  errorParam?: string | null;
}

export interface LoginContext {
  email: string;
  password: string;
  stayLoggedIn: boolean;
  error: string | null;
  /** Whether multi-factor may be skipped, and the secret to enrol with (QR code), from the server. */
  multiFactor: { optional: boolean; totpSecret?: string; totpUri?: string } | null;
  character: CharacterPose;
  passwordFocused: boolean;
  resetMessage: string | null;
  initialMode: "default" | "forgotPassword" | "singleSignOn";
}

export type LoginEvent =
  | { type: "login.submit"; email: string; password: string; stayLoggedIn: boolean }
  | { type: "login.submitCode"; code: string }
  | { type: "login.skipMultiFactor" }
  | { type: "mode.default" }
  | { type: "mode.forgotPassword" }
  | { type: "mode.singleSignOn" }
  | { type: "password.focus" }
  | { type: "password.blur" }
  | { type: "reset.submit"; email: string };

const modePaths = { default: "/", ForgotPassword: "/forgot-password", SingleSignOn: "/sso" } as const;

function initialMode(pathname: string): "default" | "forgotPassword" | "singleSignOn" {
  if (pathname.startsWith("/sso")) return "singleSignOn";
  if (pathname.startsWith("/forgot-password")) return "forgotPassword";
  return "default";
}

/**
 * The login screen (docs/behaviour.md#login, #messages): its modes, the submission and multi-factor
 * resubmission, the documented error messages by status and step, the password-reset request, and the
 * character. The app provides the actors `login` and `requestReset`, and the actions `rewriteAddress` and
 * `reload`.
 */
export const loginMachine = setup({
  types: {
    context: {} as LoginContext,
    events: {} as LoginEvent,
    input: {} as LoginInput,
  },
  actors: {
    login: fromPromise<LoginResponse, LoginRequest>(async () => notProvided("login")),
    requestReset: fromPromise<void, { email: string }>(async () => notProvided("requestReset")),
  },
  actions: {
    /** Provided by the app: replace the address bar's path without navigating. */
    rewriteAddress: (_, _params: { path: string }) => {},
    /** Provided by the app: reload the page once signed in. */
    reload: () => {},
    clearError: assign({ error: null }),
    storeCredentials: assign(({ event }) =>
      event.type === "login.submit"
        ? {
            email: event.email,
            password: event.password,
            stayLoggedIn: event.stayLoggedIn,
            error: null,
            character: "idle" as const,
          }
        : {},
    ),
  },
  guards: {
    needsMultiFactor: (_, params: { response: LoginResponse }) =>
      params.response.requiredActions[0] === "AuthenticateMultiFactor",
    hasPendingLogin: ({ context }) => context.email !== "" && context.password !== "",
    skipAllowed: ({ context }) => context.multiFactor?.optional === true,
    startsIn: ({ context }, params: { mode: LoginContext["initialMode"] }) =>
      context.initialMode === params.mode,
  },
  delays: {
    successAnimation: loginTimings.successAnimationMs,
    headShake: loginTimings.headShakeMs,
  },
}).createMachine({
  id: "login",
  context: ({ input }) => ({
    email: "",
    password: "",
    stayLoggedIn: false,
    error: input.errorParam ?? null,
    multiFactor: null,
    character: "idle",
    passwordFocused: false,
    resetMessage: null,
    initialMode: initialMode(input.pathname),
  }),
  initial: "starting",
  on: {
    "password.focus": { actions: assign({ passwordFocused: true, character: "eyesCovered" }) },
    "password.blur": {
      actions: assign({
        passwordFocused: false,
        character: ({ context }) => (context.character === "eyesCovered" ? "idle" : context.character),
      }),
    },
  },
  states: {
    starting: {
      always: [
        { guard: { type: "startsIn", params: { mode: "forgotPassword" } }, target: "forgotPassword" },
        { guard: { type: "startsIn", params: { mode: "singleSignOn" } }, target: "singleSignOn" },
        { target: "default" },
      ],
    },
    default: {
      initial: "idle",
      on: {
        "mode.forgotPassword": {
          target: "forgotPassword",
          actions: [{ type: "rewriteAddress", params: { path: modePaths.ForgotPassword } }, "clearError"],
        },
        "mode.singleSignOn": {
          target: "singleSignOn",
          actions: [{ type: "rewriteAddress", params: { path: modePaths.SingleSignOn } }, "clearError"],
        },
      },
      states: {
        idle: {
          on: {
            "login.submit": { target: "submitting", actions: "storeCredentials" },
            "login.submitCode": { actions: assign({ error: loginMessages.noPendingLogin }) },
          },
        },
        submitting: {
          invoke: {
            id: "loginRequest",
            src: "login",
            input: ({ context }) => ({
              email: context.email,
              password: context.password,
              stayLoggedIn: context.stayLoggedIn,
              actionsCompleted: [],
            }),
            onDone: [
              {
                guard: { type: "needsMultiFactor", params: ({ event }) => ({ response: event.output }) },
                target: "#login.authenticateMultiFactor",
                actions: assign({
                  multiFactor: ({ event }) => ({
                    optional: event.output.authenticateMultiFactor?.optional ?? false,
                    ...(event.output.authenticateMultiFactor?.totpSecret
                      ? { totpSecret: event.output.authenticateMultiFactor.totpSecret }
                      : {}),
                    ...(event.output.authenticateMultiFactor?.totpUri
                      ? { totpUri: event.output.authenticateMultiFactor.totpUri }
                      : {}),
                  }),
                }),
              },
              { target: "#login.success" },
            ],
            onError: {
              target: "failed",
              actions: assign({
                error: ({ event }) => loginErrorMessage(event.error, "password"),
                password: "",
                character: "headShake",
              }),
            },
          },
        },
        failed: {
          after: { headShake: { target: "idle", actions: assign({ character: "idle" }) } },
          on: { "login.submit": { target: "submitting", actions: "storeCredentials" } },
        },
      },
    },
    authenticateMultiFactor: {
      initial: "idle",
      on: {
        "mode.default": {
          target: "default",
          actions: [
            { type: "rewriteAddress", params: { path: modePaths.default } },
            assign({ multiFactor: null, password: "", error: null }),
          ],
        },
      },
      states: {
        idle: {
          on: {
            "login.submitCode": [
              { guard: "hasPendingLogin", target: "submitting", actions: assign({ error: null }) },
              { actions: assign({ error: loginMessages.noPendingLogin }) },
            ],
            "login.skipMultiFactor": {
              guard: "skipAllowed",
              target: "skipping",
              actions: assign({ error: null }),
            },
          },
        },
        submitting: {
          invoke: {
            id: "loginRequest",
            src: "login",
            input: ({ context, event }) => ({
              email: context.email,
              password: context.password,
              stayLoggedIn: context.stayLoggedIn,
              actionsCompleted: ["AuthenticateMultiFactor"],
              authenticateMultiFactor: { totpCode: (event as { code?: string }).code ?? "" },
            }),
            onDone: { target: "#login.success" },
            onError: {
              target: "idle",
              actions: assign({
                error: ({ event }) => loginErrorMessage(event.error, "multiFactor"),
                character: "headShake",
              }),
            },
          },
        },
        skipping: {
          invoke: {
            id: "loginRequest",
            src: "login",
            input: ({ context }) => ({
              email: context.email,
              password: context.password,
              stayLoggedIn: context.stayLoggedIn,
              actionsCompleted: ["AuthenticateMultiFactor"],
              authenticateMultiFactor: { skip: true },
            }),
            onDone: { target: "#login.success" },
            onError: {
              target: "idle",
              actions: assign({ error: ({ event }) => loginErrorMessage(event.error, "multiFactor") }),
            },
          },
        },
      },
    },
    forgotPassword: {
      initial: "idle",
      on: {
        "mode.default": {
          target: "default",
          actions: [{ type: "rewriteAddress", params: { path: modePaths.default } }, "clearError"],
        },
      },
      states: {
        idle: {
          on: {
            "reset.submit": { target: "submitting", actions: assign({ resetMessage: null, error: null }) },
          },
        },
        /** The form is locked while the request runs (docs/behaviour.md#login). */
        submitting: {
          invoke: {
            id: "resetRequest",
            src: "requestReset",
            input: ({ event }) => ({ email: (event as { email?: string }).email ?? "" }),
            onDone: { target: "answered", actions: assign({ resetMessage: loginMessages.resetRequested }) },
            onError: { target: "idle", actions: assign({ error: loginMessages.resetFailed }) },
          },
        },
        answered: {},
      },
    },
    singleSignOn: {
      on: {
        "mode.default": {
          target: "default",
          actions: [{ type: "rewriteAddress", params: { path: modePaths.default } }, "clearError"],
        },
      },
    },
    success: {
      entry: assign({ character: "standing", password: "", error: null }),
      after: { successAnimation: { target: "done", actions: "reload" } },
    },
    done: { type: "final" },
  },
});
