import type { LoginRequest, LoginResponse } from "@varia/contracts";
import { describe, expect, it, vi } from "vitest";
import { createActor, fromPromise, SimulatedClock, waitFor } from "xstate";
import { loginMachine, loginTimings } from "./login-machine";
import { loginMessages } from "./login-messages";
import {
  selectCharacter,
  selectLoginBusy,
  selectLoginError,
  selectLoginMode,
  selectResetLocked,
} from "./selectors";

type Answer = (request: LoginRequest) => Promise<LoginResponse>;

function start(
  options: { pathname?: string; errorParam?: string; login?: Answer; reset?: () => Promise<void> } = {},
) {
  const clock = new SimulatedClock();
  const requests: LoginRequest[] = [];
  const rewrite = vi.fn();
  const reload = vi.fn();
  const machine = loginMachine.provide({
    actors: {
      login: fromPromise(async ({ input }: { input: LoginRequest }) => {
        requests.push(input);
        return (options.login ?? (async () => ({ requiredActions: [] })))(input);
      }),
      requestReset: fromPromise(options.reset ?? (async () => {})),
    },
    actions: { rewriteAddress: (_, params) => rewrite(params.path), reload: () => reload() },
  });
  const actor = createActor(machine, {
    input: { pathname: options.pathname ?? "/", errorParam: options.errorParam },
    clock,
  }).start();
  return { actor, clock, requests, rewrite, reload };
}

const submit = {
  type: "login.submit",
  email: "ada@acme.example.com",
  password: "pw",
  stayLoggedIn: true,
} as const;
const reject = (status: number, message?: string) => () =>
  Promise.reject({ status, result: message ? { message } : undefined });

describe("login machine (docs/behaviour.md#login, #messages)", () => {
  it.each([
    ["/", "default"],
    ["/sso", "SingleSignOn"],
    ["/forgot-password", "ForgotPassword"],
  ])("takes its mode from the address %s", (pathname, mode) => {
    expect(selectLoginMode(start({ pathname }).actor.getSnapshot())).toBe(mode);
  });

  it("shows the login 'error' query parameter", () => {
    expect(selectLoginError(start({ errorParam: "SSO failed" }).actor.getSnapshot())).toBe("SSO failed");
  });

  it("rewrites the address when switching modes", () => {
    const { actor, rewrite } = start();
    actor.send({ type: "mode.singleSignOn" });
    expect(selectLoginMode(actor.getSnapshot())).toBe("SingleSignOn");
    actor.send({ type: "mode.default" });
    actor.send({ type: "mode.forgotPassword" });
    expect(selectLoginMode(actor.getSnapshot())).toBe("ForgotPassword");
    actor.send({ type: "mode.default" });
    expect(rewrite.mock.calls.map((c) => c[0])).toEqual(["/sso", "/", "/forgot-password", "/"]);
  });

  it("signs in, stands the character up, and reloads after the animation", async () => {
    const { actor, clock, requests, reload } = start();
    actor.send(submit);
    expect(selectLoginBusy(actor.getSnapshot())).toBe(true);
    await waitFor(actor, (s) => s.matches("success"));
    expect(requests[0]).toEqual({
      email: submit.email,
      password: "pw",
      stayLoggedIn: true,
      actionsCompleted: [],
    });
    expect(selectCharacter(actor.getSnapshot())).toBe("standing");
    clock.increment(loginTimings.successAnimationMs - 1);
    expect(reload).not.toHaveBeenCalled();
    clock.increment(1);
    expect(reload).toHaveBeenCalledOnce();
  });

  it.each([
    [401, undefined, loginMessages.invalidCredentials],
    [400, undefined, loginMessages.badRequest],
    [429, undefined, loginMessages.locked],
    [429, "Locked for 15 minutes", "Locked for 15 minutes"],
    [500, undefined, loginMessages.other],
    [0, undefined, loginMessages.other],
  ])("shows the documented message for a %i answer", async (status, message, expected) => {
    const { actor, clock } = start({ login: reject(status, message) });
    actor.send(submit);
    await waitFor(actor, (s) => s.matches({ default: "failed" }));
    expect(selectLoginError(actor.getSnapshot())).toBe(expected);
    expect(selectCharacter(actor.getSnapshot())).toBe("headShake");
    clock.increment(loginTimings.headShakeMs);
    expect(actor.getSnapshot().matches({ default: "idle" })).toBe(true);
    expect(selectCharacter(actor.getSnapshot())).toBe("idle");
  });

  it("covers the character's eyes while the password field has focus", () => {
    const { actor } = start();
    actor.send({ type: "password.focus" });
    expect(selectCharacter(actor.getSnapshot())).toBe("eyesCovered");
    actor.send({ type: "password.blur" });
    expect(selectCharacter(actor.getSnapshot())).toBe("idle");
  });

  it("moves to multi-factor when the server requires it and resubmits with the code", async () => {
    let step = 0;
    const { actor, requests } = start({
      login: async () =>
        step++ === 0
          ? {
              requiredActions: ["AuthenticateMultiFactor"],
              authenticateMultiFactor: {
                optional: false,
                totpSecret: "ABC",
                totpUri: "otpauth://totp/x?secret=ABC",
              },
            }
          : { requiredActions: [] },
    });
    actor.send(submit);
    await waitFor(actor, (s) => selectLoginMode(s) === "AuthenticateMultiFactor");
    expect(actor.getSnapshot().context.multiFactor).toEqual({
      optional: false,
      totpSecret: "ABC",
      totpUri: "otpauth://totp/x?secret=ABC",
    });
    actor.send({ type: "login.skipMultiFactor" });
    expect(actor.getSnapshot().matches({ authenticateMultiFactor: "idle" })).toBe(true);
    actor.send({ type: "login.submitCode", code: "123456" });
    await waitFor(actor, (s) => s.matches("success"));
    expect(requests[1]).toMatchObject({
      actionsCompleted: ["AuthenticateMultiFactor"],
      authenticateMultiFactor: { totpCode: "123456" },
      email: submit.email,
      password: "pw",
    });
  });

  it("skips multi-factor when it is optional", async () => {
    let step = 0;
    const { actor, requests } = start({
      login: async () =>
        step++ === 0
          ? { requiredActions: ["AuthenticateMultiFactor"], authenticateMultiFactor: { optional: true } }
          : { requiredActions: [] },
    });
    actor.send(submit);
    await waitFor(actor, (s) => selectLoginMode(s) === "AuthenticateMultiFactor");
    actor.send({ type: "login.skipMultiFactor" });
    await waitFor(actor, (s) => s.matches("success"));
    expect(requests[1]?.authenticateMultiFactor).toEqual({ skip: true });
  });

  it("says 'Incorrect code, please try again' for a 401 in the multi-factor step", async () => {
    let step = 0;
    const { actor } = start({
      login: async () => {
        if (step++ === 0)
          return {
            requiredActions: ["AuthenticateMultiFactor"],
            authenticateMultiFactor: { optional: false },
          };
        throw { status: 401 };
      },
    });
    actor.send(submit);
    await waitFor(actor, (s) => selectLoginMode(s) === "AuthenticateMultiFactor");
    actor.send({ type: "login.submitCode", code: "000000" });
    await waitFor(actor, (s) => selectLoginError(s) !== null);
    expect(selectLoginError(actor.getSnapshot())).toBe(loginMessages.incorrectCode);
    expect(selectLoginMode(actor.getSnapshot())).toBe("AuthenticateMultiFactor");
  });

  it("refuses a code with no pending login", () => {
    const { actor } = start();
    actor.send({ type: "login.submitCode", code: "123456" });
    expect(selectLoginError(actor.getSnapshot())).toBe(loginMessages.noPendingLogin);
  });

  it("goes back to the login from multi-factor", async () => {
    const { actor, rewrite } = start({
      login: async () => ({
        requiredActions: ["AuthenticateMultiFactor"],
        authenticateMultiFactor: { optional: false },
      }),
    });
    actor.send(submit);
    await waitFor(actor, (s) => selectLoginMode(s) === "AuthenticateMultiFactor");
    actor.send({ type: "mode.default" });
    expect(selectLoginMode(actor.getSnapshot())).toBe("default");
    expect(actor.getSnapshot().context.password).toBe("");
    expect(rewrite).toHaveBeenLastCalledWith("/");
  });

  it("locks the reset form while requesting, then shows the neutral confirmation", async () => {
    let finish!: () => void;
    const { actor } = start({
      pathname: "/forgot-password",
      reset: () => new Promise<void>((r) => (finish = r)),
    });
    actor.send({ type: "reset.submit", email: "ada@acme.example.com" });
    expect(selectResetLocked(actor.getSnapshot())).toBe(true);
    finish();
    await waitFor(actor, (s) => s.context.resetMessage !== null);
    expect(actor.getSnapshot().context.resetMessage).toBe(loginMessages.resetRequested);
  });

  it("shows the reset error and unlocks the form on failure", async () => {
    const { actor } = start({ pathname: "/forgot-password", reset: () => Promise.reject({ status: 500 }) });
    actor.send({ type: "reset.submit", email: "ada@acme.example.com" });
    await waitFor(actor, (s) => s.context.error !== null);
    expect(selectLoginError(actor.getSnapshot())).toBe(loginMessages.resetFailed);
    expect(selectResetLocked(actor.getSnapshot())).toBe(false);
  });
});
