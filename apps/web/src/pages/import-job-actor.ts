import { importGetJobStatus } from "@varia/contracts";
import { importJobMachine } from "@varia/machines";
import { fromPromise } from "xstate";
import { api } from "../api";

/** The import-job poller on Import/GetJobStatus: an import's job, and a backup's restore. */
export const appImportJobMachine = importJobMachine.provide({
  actors: {
    getStatus: fromPromise(({ input }) =>
      api.call(importGetJobStatus, { query: { JobGuid: input.jobGuid } }),
    ),
  },
});
