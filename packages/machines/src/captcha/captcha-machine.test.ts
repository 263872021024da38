import { describe, expect, it, vi } from "vitest";
import { createActor, fromPromise, SimulatedClock, toPromise } from "xstate";
import { captchaMachine, captchaMessages, captchaWaitMs } from "./captcha-machine";

const input = {
  action: "demo_signup",
  host: "app.varia.example.com",
  developmentDomain: "localhost",
  continueWithoutToken: true,
};

function start(options: {
  library?: () => Promise<void>;
  execute?: () => Promise<string>;
  input?: Partial<typeof input>;
}) {
  const clock = new SimulatedClock();
  const alert = vi.fn();
  const machine = captchaMachine.provide({
    actors: {
      waitForLibrary: fromPromise(options.library ?? (async () => {})),
      execute: fromPromise(options.execute ?? (async () => "token-1")),
    },
    actions: { alert: (_, params) => alert(params.message) },
  });
  const actor = createActor(machine, { input: { ...input, ...options.input }, clock }).start();
  return { actor, clock, alert };
}

describe("captcha (docs/behaviour.md#messages, #timings-and-limits)", () => {
  it("gets a token for the action when the library is there", async () => {
    const { actor } = start({});
    expect(await toPromise(actor)).toEqual({ proceed: true, token: "token-1" });
  });

  it("is skipped on the development domain", async () => {
    const { actor } = start({ input: { host: "acme.localhost:8080" } });
    expect(await toPromise(actor)).toEqual({ proceed: true, token: null });
  });

  it("is not skipped anywhere when no development domain is named", async () => {
    const { actor } = start({ input: { host: "acme.localhost", developmentDomain: "" } });
    expect(await toPromise(actor)).toEqual({ proceed: true, token: "token-1" });
  });

  it("goes on without a token after 800 ms when that is allowed", async () => {
    const { actor, clock, alert } = start({ library: () => new Promise(() => {}) });
    clock.increment(captchaWaitMs - 1);
    expect(actor.getSnapshot().status).toBe("active");
    clock.increment(1);
    expect(await toPromise(actor)).toEqual({ proceed: true, token: null });
    expect(alert).not.toHaveBeenCalled();
  });

  it("alerts and rejects when the library is missing and going on is not allowed", async () => {
    const { actor, clock, alert } = start({
      library: () => new Promise(() => {}),
      input: { continueWithoutToken: false },
    });
    clock.increment(captchaWaitMs);
    expect(await toPromise(actor)).toEqual({ proceed: false, token: null });
    expect(alert).toHaveBeenCalledWith(captchaMessages.missing);
  });

  it("alerts when the token cannot be made", async () => {
    const { actor, alert } = start({ execute: () => Promise.reject(new Error("grecaptcha")) });
    expect(await toPromise(actor)).toEqual({ proceed: false, token: null });
    expect(alert).toHaveBeenCalledWith(
      "Failed to activate the captcha service, please refresh the page and try again.",
    );
  });
});
