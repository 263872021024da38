import { describe, expect, it } from "vitest";
import { createActor, fromPromise, waitFor } from "xstate";
import { passwordLinkMachine, passwordMessages, passwordRequestMachine } from "./password-machines";

const refusal = (
  status: number,
  errors: { field: string; message: string }[] = [],
  message = "Bad Request",
) => Object.assign(new Error(message), { status, result: { message, errors } });

describe("passwordRequestMachine", () => {
  function start(requestReset: (email: string) => Promise<void>) {
    const emails: string[] = [];
    const machine = passwordRequestMachine.provide({
      actors: {
        requestReset: fromPromise(async ({ input }) => {
          emails.push(input.email);
          return requestReset(input.email);
        }),
      },
    });
    return { actor: createActor(machine).start(), emails };
  }

  it("locks while the request runs, then shows the neutral confirmation and stays locked", async () => {
    let finish = () => {};
    const { actor, emails } = start(() => new Promise<void>((resolve) => (finish = resolve)));
    actor.send({ type: "reset.submit", email: "ada@example.com" });
    expect(actor.getSnapshot().value).toBe("requesting");
    actor.send({ type: "reset.submit", email: "again@example.com" });
    finish();
    await waitFor(actor, (s) => s.status === "done");
    expect(emails).toEqual(["ada@example.com"]);
    expect(actor.getSnapshot().context.confirmation).toBe(
      "If you have entered a valid email address, you'll soon receive an email with a link to reset your password",
    );
  });

  it("shows the spec's error and opens the form again when the request fails", async () => {
    const { actor } = start(() => Promise.reject(refusal(500)));
    actor.send({ type: "reset.submit", email: "ada@example.com" });
    await waitFor(actor, (s) => s.matches("idle"));
    expect(actor.getSnapshot().context.error).toBe(
      "An error occurred while requesting password reset, please try again",
    );
  });
});

describe("passwordLinkMachine", () => {
  function start(options: {
    valid?: boolean | Error;
    save?: (password: string) => Promise<{ email: string }>;
  }) {
    const saved: string[] = [];
    const machine = passwordLinkMachine.provide({
      actors: {
        checkLink: fromPromise<
          { isValid: boolean; email?: string },
          { tokenID: string; secretToken: string }
        >(async () => {
          if (options.valid instanceof Error) throw options.valid;
          const isValid = options.valid ?? true;
          return isValid ? { isValid, email: "ada@example.com" } : { isValid };
        }),
        setPassword: fromPromise(async ({ input }) => {
          saved.push(input.password);
          return (options.save ?? (async () => ({ email: "ada@example.com" })))(input.password);
        }),
      },
    });
    const actor = createActor(machine, { input: { tokenID: "t", secretToken: "s", kind: "reset" } }).start();
    return { actor, saved };
  }

  it("ends in invalid when the link is used or expired, without showing the form", async () => {
    const { actor } = start({ valid: false });
    await waitFor(actor, (s) => s.status === "done");
    expect(actor.getSnapshot().value).toBe("invalid");
  });

  it("offers a retry when the check itself failed", async () => {
    const { actor } = start({ valid: refusal(500) });
    await waitFor(actor, (s) => s.matches("checkFailed"));
    expect(actor.getSnapshot().context.error).toBe(passwordMessages.checkFailed);
  });

  it("holds the account's e-mail address from the check of a usable link, for password managers", async () => {
    const { actor } = start({});
    await waitFor(actor, (s) => s.matches("ready"));
    expect(actor.getSnapshot().context.email).toBe("ada@example.com");
  });

  it("refuses two different passwords without calling the server", async () => {
    const { actor, saved } = start({});
    await waitFor(actor, (s) => s.matches("ready"));
    actor.send({
      type: "password.submit",
      password: "a long new password",
      confirmation: "a long new passw0rd",
    });
    expect(actor.getSnapshot().context.confirmationErrors).toEqual([passwordMessages.mismatch]);
    expect(saved).toEqual([]);
  });

  it("shows the server's reasons against the password on the field", async () => {
    const reason =
      "This password is too common: it appears in lists of leaked passwords. Please choose another.";
    const { actor } = start({
      save: () => Promise.reject(refusal(400, [{ field: "password", message: reason }])),
    });
    await waitFor(actor, (s) => s.matches("ready"));
    actor.send({ type: "password.submit", password: "password1234", confirmation: "password1234" });
    await waitFor(actor, (s) => s.matches("ready") && s.context.passwordErrors.length > 0);
    expect(actor.getSnapshot().context.passwordErrors).toEqual([reason]);
  });

  it("ends in invalid when the link was used meanwhile", async () => {
    const { actor } = start({
      save: () => Promise.reject(refusal(400, [{ field: "secretToken", message: "This link is invalid" }])),
    });
    await waitFor(actor, (s) => s.matches("ready"));
    actor.send({
      type: "password.submit",
      password: "a long new password",
      confirmation: "a long new password",
    });
    await waitFor(actor, (s) => s.status === "done");
    expect(actor.getSnapshot().value).toBe("invalid");
  });

  it("ends in done once the password is saved, with the account's e-mail address", async () => {
    const { actor, saved } = start({});
    await waitFor(actor, (s) => s.matches("ready"));
    actor.send({
      type: "password.submit",
      password: "a long new password",
      confirmation: "a long new password",
    });
    await waitFor(actor, (s) => s.status === "done");
    expect(actor.getSnapshot().value).toBe("done");
    expect(actor.getSnapshot().context.email).toBe("ada@example.com");
    expect(saved).toEqual(["a long new password"]);
  });
});
