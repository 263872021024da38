import { describe, expect, it } from "vitest";
import { createActor } from "xstate";
import { demoFormMachine, demoFormMessages, isBusinessEmail } from "./demo-form-machine";

function start(userAgent = "Mozilla/5.0 (X11; Linux x86_64)") {
  const actor = createActor(demoFormMachine, { input: { userAgent } }).start();
  const emitted: unknown[] = [];
  actor.on("*", (event) => emitted.push(event));
  return { actor, emitted };
}

describe("demo form (docs/behaviour.md#demo-request, #validation)", () => {
  it("refuses an empty name and a non-business e-mail with the documented messages, and submits nothing", () => {
    const { actor, emitted } = start();
    actor.send({ type: "form.editEmail", value: "someone@gmail.com" });
    actor.send({ type: "form.submit" });
    expect(actor.getSnapshot().context.errors).toEqual({
      name: ["Please enter a name"],
      email: ["Please enter a valid business email"],
      form: [],
    });
    expect(emitted).toEqual([]);
  });

  it.each([
    ["ada@acme.example.com", true],
    ["ada.acme.example.com", false],
    ["", false],
    ["ADA@HOTMAIL.COM", false],
    ["ada@outlook.com", false],
  ])("judges %s a business e-mail: %s", (email, ok) => {
    expect(isBusinessEmail(email, ["gmail.com", "yahoo.com", "hotmail.com", "outlook.com"])).toBe(ok);
  });

  it("clears a field's errors when it is edited", () => {
    const { actor } = start();
    actor.send({ type: "form.submit" });
    actor.send({ type: "form.editName", value: "Ada" });
    expect(actor.getSnapshot().context.errors.name).toEqual([]);
    expect(actor.getSnapshot().context.errors.email).toEqual([demoFormMessages.email]);
  });

  it("emits the demo request with phoneDetected from the user agent", () => {
    const { actor, emitted } = start("Mozilla/5.0 (iPhone) Mobile/15E148 Mobi");
    actor.send({ type: "form.editName", value: " Ada " });
    actor.send({ type: "form.editEmail", value: "ada@acme.example.com" });
    actor.send({ type: "form.submit" });
    expect(emitted).toEqual([
      { type: "demoRequest", name: "Ada", email: "ada@acme.example.com", phoneDetected: true },
    ]);
  });

  it("lets errors from outside replace the local ones, and maps the server's e-mail refusal to the field", () => {
    const { actor } = start();
    actor.send({ type: "form.submit" });
    actor.send({ type: "form.errors", errors: { form: ["Something else"] } });
    expect(actor.getSnapshot().context.errors).toEqual({ name: [], email: [], form: ["Something else"] });
    actor.send({ type: "form.requesting", value: true });
    expect(actor.getSnapshot().context.isRequesting).toBe(true);
    actor.send({ type: "form.failed", message: "Email is not a valid business email" });
    expect(actor.getSnapshot().context.errors.email).toEqual(["Please enter a valid business email"]);
    expect(actor.getSnapshot().context.isRequesting).toBe(false);
    actor.send({ type: "form.failed" });
    expect(actor.getSnapshot().context.errors.form).toEqual(["Demo signup failed, please try again"]);
  });

  it("emits cancel", () => {
    const { actor, emitted } = start();
    actor.send({ type: "form.cancel" });
    expect(emitted).toEqual([{ type: "cancel" }]);
  });
});
