import type { SnapshotFrom } from "xstate";
import { type importJobMachine, jobStatusLabels } from "./import-job-machine";

type Snapshot = SnapshotFrom<typeof importJobMachine>;

export const selectJobStatus = (s: Snapshot) => s.context.status;
export const selectJobLabel = (s: Snapshot) => jobStatusLabels[s.context.status];
export const selectJob = (s: Snapshot) => s.context.job;
/** The button that waits for the job is enabled once it completed (docs/behaviour.md#sign-up-wizard). */
export const selectJobCompleted = (s: Snapshot): boolean => s.context.status === "Completed";
export const selectJobFinished = (s: Snapshot): boolean => s.status === "done";
