import type { ImportJob, JobStatus } from "@varia/contracts";
import { describe, expect, it, vi } from "vitest";
import { createActor, fromPromise, SimulatedClock, waitFor } from "xstate";
import { importJobMachine, jobPollIntervalMs, jobStatusLabels } from "./import-job-machine";
import { selectJobCompleted, selectJobLabel } from "./selectors";

const job = (status: JobStatus): ImportJob => ({
  jobGuid: "j1",
  kind: "Import",
  status,
  fileName: "lines.csv",
  rowsImported: status === "Completed" ? 10 : null,
  rowsReplaced: status === "Completed" ? 0 : null,
  errors: [],
  errorCount: 0,
  message: null,
  createdAt: "2026-11-22T10:00:00.000Z",
  finishedAt: null,
});

function start(statuses: JobStatus[], input: { pollIntervalMs?: number; inSignUp?: boolean } = {}) {
  const clock = new SimulatedClock();
  let calls = 0;
  const setStep = vi.fn();
  const goToConfigure = vi.fn();
  const machine = importJobMachine.provide({
    actors: {
      getStatus: fromPromise(async () => job(statuses[Math.min(calls++, statuses.length - 1)]!)),
      setSignUpStepConfigure: fromPromise(async () => setStep()),
    },
    actions: { goToConfigure: () => goToConfigure() },
  });
  const actor = createActor(machine, { input: { jobGuid: "j1", ...input }, clock }).start();
  return { actor, clock, calls: () => calls, setStep, goToConfigure };
}

describe("import job machine (docs/behaviour.md#import-jobs)", () => {
  it("labels every status as docs/behaviour.md does", () => {
    expect(jobStatusLabels).toEqual({
      Unknown: "Checking on job status",
      Pending: "Job is in the queue",
      Running: "Job is running",
      Failed: "Job failed",
      FailedPermanently: "Job failed",
      Completed: "Job completed successfully",
    });
  });

  it("starts unknown, then polls every 5 s until the job completes", async () => {
    const { actor, clock, calls } = start(["Pending", "Running", "Completed"]);
    expect(selectJobLabel(actor.getSnapshot())).toBe("Checking on job status");
    await waitFor(actor, (s) => s.matches("waiting"));
    expect(selectJobLabel(actor.getSnapshot())).toBe("Job is in the queue");
    clock.increment(jobPollIntervalMs - 1);
    expect(calls()).toBe(1);
    clock.increment(1);
    await waitFor(actor, (s) => s.context.status === "Running" && s.matches("waiting"));
    expect(selectJobCompleted(actor.getSnapshot())).toBe(false);
    clock.increment(jobPollIntervalMs);
    await waitFor(actor, (s) => s.status === "done");
    expect(selectJobLabel(actor.getSnapshot())).toBe("Job completed successfully");
    expect(selectJobCompleted(actor.getSnapshot())).toBe(true);
    expect(calls()).toBe(3);
  });

  it.each(["Failed", "FailedPermanently"] as const)("stops polling on %s", async (status) => {
    const { actor, clock, calls } = start(["Running", status]);
    await waitFor(actor, (s) => s.matches("waiting"));
    clock.increment(jobPollIntervalMs);
    await waitFor(actor, (s) => s.status === "done");
    expect(selectJobLabel(actor.getSnapshot())).toBe("Job failed");
    clock.increment(jobPollIntervalMs * 3);
    expect(calls()).toBe(2);
  });

  it("polls at the interval it is given", async () => {
    const { actor, clock, calls } = start(["Running", "Completed"], { pollIntervalMs: 1000 });
    await waitFor(actor, (s) => s.matches("waiting"));
    clock.increment(1000);
    await waitFor(actor, (s) => s.status === "done");
    expect(calls()).toBe(2);
  });

  it("keeps polling through a failed status check", async () => {
    const clock = new SimulatedClock();
    let n = 0;
    const machine = importJobMachine.provide({
      actors: {
        getStatus: fromPromise(async () => {
          if (n++ === 0) throw { status: 0 };
          return job("Completed");
        }),
      },
    });
    const actor = createActor(machine, { input: { jobGuid: "j1" }, clock }).start();
    await waitFor(actor, (s) => s.matches("waiting"));
    expect(actor.getSnapshot().context.failedChecks).toBe(1);
    expect(selectJobLabel(actor.getSnapshot())).toBe("Checking on job status");
    clock.increment(jobPollIntervalMs);
    await waitFor(actor, (s) => s.status === "done");
  });

  it("in sign-up, sets the step to Configure and goes to /sign-up/configure on completion", async () => {
    const { actor, setStep, goToConfigure } = start(["Completed"], { inSignUp: true });
    await waitFor(actor, (s) => s.status === "done");
    expect(setStep).toHaveBeenCalledOnce();
    expect(goToConfigure).toHaveBeenCalledOnce();
  });

  it("outside sign-up, does not touch the sign-up step", async () => {
    const { actor, setStep } = start(["Completed"]);
    await waitFor(actor, (s) => s.status === "done");
    expect(setStep).not.toHaveBeenCalled();
  });
});
