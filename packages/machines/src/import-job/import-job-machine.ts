import type { ImportJob, JobStatus } from "@varia/contracts";
import { assign, fromPromise, setup } from "xstate";
import { notProvided } from "../request-error";

/** docs/behaviour.md#import-jobs: the label of each job status. */
export const jobStatusLabels: Record<JobStatus, string> = {
  Unknown: "Checking on job status",
  Pending: "Job is in the queue",
  Running: "Job is running",
  Failed: "Job failed",
  FailedPermanently: "Job failed",
  Completed: "Job completed successfully",
};

/** docs/behaviour.md#import-jobs: the job status is polled every 5 s. */
export const jobPollIntervalMs = 5000;

const finalStatuses: readonly JobStatus[] = ["Completed", "Failed", "FailedPermanently"];

export interface ImportJobInput {
  jobGuid: string;
  /** How often to ask (default 5000 ms); the CLI lets its user choose. */
  pollIntervalMs?: number;
  /** In the sign-up wizard, a completed job moves the organisation to the Configure step. */
  inSignUp?: boolean;
}

export interface ImportJobContext {
  jobGuid: string;
  pollIntervalMs: number;
  inSignUp: boolean;
  status: JobStatus;
  job: ImportJob | null;
  /** How many status checks failed in a row (the poll goes on). */
  failedChecks: number;
}

export type ImportJobEvent = { type: "job.poll" };

/**
 * Follows an import job (docs/behaviour.md#import-jobs): polls its status every 5 s until Completed, Failed
 * or FailedPermanently. The app provides `getStatus`, and for sign-up `setSignUpStepConfigure` and the action
 * `goToConfigure`.
 */
export const importJobMachine = setup({
  types: {
    context: {} as ImportJobContext,
    events: {} as ImportJobEvent,
    input: {} as ImportJobInput,
    output: {} as { status: JobStatus; job: ImportJob | null },
  },
  actors: {
    getStatus: fromPromise<ImportJob, { jobGuid: string }>(async () => notProvided("getStatus")),
    setSignUpStepConfigure: fromPromise<void>(async () => notProvided("setSignUpStepConfigure")),
  },
  actions: {
    /** Provided by the app: go to /sign-up/configure. */
    goToConfigure: () => {},
  },
  guards: {
    isFinal: ({ context }) => finalStatuses.includes(context.status),
    isCompletedInSignUp: ({ context }) => context.status === "Completed" && context.inSignUp,
  },
  delays: {
    pollInterval: ({ context }) => context.pollIntervalMs,
  },
}).createMachine({
  id: "importJob",
  context: ({ input }) => ({
    jobGuid: input.jobGuid,
    pollIntervalMs: input.pollIntervalMs ?? jobPollIntervalMs,
    inSignUp: input.inSignUp ?? false,
    status: "Unknown",
    job: null,
    failedChecks: 0,
  }),
  initial: "checking",
  states: {
    checking: {
      invoke: {
        src: "getStatus",
        input: ({ context }) => ({ jobGuid: context.jobGuid }),
        onDone: {
          target: "deciding",
          actions: assign({
            job: ({ event }) => event.output,
            status: ({ event }) => event.output.status,
            failedChecks: 0,
          }),
        },
        onError: {
          target: "waiting",
          actions: assign({ failedChecks: ({ context }) => context.failedChecks + 1 }),
        },
      },
    },
    deciding: {
      always: [
        { guard: "isCompletedInSignUp", target: "configuringSignUp" },
        { guard: "isFinal", target: "done" },
        { target: "waiting" },
      ],
    },
    waiting: {
      after: { pollInterval: { target: "checking" } },
      on: { "job.poll": { target: "checking" } },
    },
    configuringSignUp: {
      invoke: {
        src: "setSignUpStepConfigure",
        onDone: { target: "done", actions: "goToConfigure" },
        onError: { target: "done" },
      },
    },
    done: { type: "final" },
  },
  output: ({ context }) => ({ status: context.status, job: context.job }),
});
