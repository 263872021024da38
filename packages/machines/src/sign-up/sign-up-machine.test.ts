import { describe, expect, it, vi } from "vitest";
import { createActor, fromPromise, waitFor } from "xstate";
import { signUpMachine, signUpMessages, signUpPickers } from "./sign-up-machine";

function start(step?: "Welcome" | "Data" | "Configure") {
  const alert = vi.fn();
  const goHome = vi.fn();
  const configure = vi.fn();
  const machine = signUpMachine.provide({
    actors: {
      authorise: fromPromise(async () => {}),
      startImport: fromPromise(async () => ({ jobGuid: "job-1" })),
      configure: fromPromise(async ({ input }) => configure(input)),
    },
    actions: { alert: (_, params) => alert(params.message), goHome: () => goHome() },
  });
  const actor = createActor(machine, { input: { step } }).start();
  return { actor, alert, goHome, configure };
}

describe("sign-up wizard (docs/behaviour.md#sign-up-wizard, #validation)", () => {
  it("blocks Authorise until the terms are agreed and an integration is chosen, saying why", async () => {
    const { actor } = start();
    actor.send({ type: "welcome.authorise" });
    expect(actor.getSnapshot().context.errors).toEqual([signUpMessages.terms, signUpMessages.integration]);
    actor.send({ type: "welcome.agree", agreed: true });
    actor.send({ type: "welcome.authorise" });
    expect(actor.getSnapshot().context.errors).toEqual(["Please select an integration type"]);
    actor.send({ type: "welcome.chooseIntegration", integrationType: "Xero" });
    actor.send({ type: "welcome.authorise" });
    await waitFor(actor, (s) => s.matches("data"));
  });

  it("alerts 'Fill in all info please' until source, schedule and time zone are set, then follows the job", async () => {
    const { actor, alert } = start("Data");
    actor.send({ type: "data.set", dataSourceId: "src-1", timeZone: "Pacific/Auckland" });
    actor.send({ type: "data.start" });
    expect(alert).toHaveBeenCalledWith("Fill in all info please");
    actor.send({
      type: "data.set",
      schedule: { interval: "Daily", hour: 6, minute: 0, amPm: "AM", country: "NewZealand" },
    });
    actor.send({ type: "data.start" });
    await waitFor(actor, (s) => s.matches({ data: "importing" }));
    expect(actor.getSnapshot().context.jobGuid).toBe("job-1");
    actor.send({ type: "job.completed" });
    expect(actor.getSnapshot().context.step).toBe("Configure");
  });

  it("returns to the form when the job fails, and starts again from it", async () => {
    const { actor } = start("Data");
    actor.send({
      type: "data.set",
      dataSourceId: "src-1",
      timeZone: "Europe/London",
      schedule: {
        interval: "Weekly",
        dayOfWeek: "Monday",
        hour: 7,
        minute: 30,
        amPm: "AM",
        country: "UnitedKingdom",
      },
    });
    actor.send({ type: "data.start" });
    await waitFor(actor, (s) => s.matches({ data: "importing" }));
    actor.send({ type: "job.failed" });
    expect(actor.getSnapshot().matches({ data: "editing" })).toBe(true);
    actor.send({ type: "data.start" });
    await waitFor(actor, (s) => s.matches({ data: "importing" }));
  });

  it("alerts 'fill in all fields please' until name and default category are set, then configures and goes home", async () => {
    const { actor, alert, goHome, configure } = start("Configure");
    actor.send({ type: "configure.set", organisationName: " Acme " });
    actor.send({ type: "configure.confirm" });
    expect(alert).toHaveBeenCalledWith("fill in all fields please");
    actor.send({ type: "configure.set", defaultCategory: "Recurring", adhocSkus: ["HW-1"] });
    actor.send({ type: "configure.confirm" });
    await waitFor(actor, (s) => s.status === "done");
    expect(configure).toHaveBeenCalledWith({
      organisationName: "Acme",
      defaultCategory: "Recurring",
      recurringSkus: [],
      adhocSkus: ["HW-1"],
    });
    expect(goHome).toHaveBeenCalledOnce();
  });

  it("hides the picker of the default category", () => {
    expect(signUpPickers("Recurring")).toEqual({ showRecurring: false, showAdhoc: true });
    expect(signUpPickers("Adhoc")).toEqual({ showRecurring: true, showAdhoc: false });
    expect(signUpPickers(null)).toEqual({ showRecurring: true, showAdhoc: true });
  });
});
