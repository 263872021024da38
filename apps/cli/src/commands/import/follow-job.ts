import type { ApiClient } from "@varia/api-client";
import { type ImportJob, importGetJobStatus } from "@varia/contracts";
import { importJobMachine, jobStatusLabels } from "@varia/machines";
import { createActor, fromPromise } from "xstate";
import type { CommandContext } from "../../context";
import { CliError } from "../../errors/cli-error";
import { describeFailure } from "../../errors/describe-failure";
import { exitCodes } from "../../errors/exit-codes";
import type { WaitOptions } from "../job-options";

/** Status checks that may fail in a row (the server restarting) before the CLI gives up. */
export const maxFailedChecks = 3;

/**
 * Follows a job to its end with the importJob machine (the web app's own), noting each status label
 * of docs/behaviour.md#import-jobs as it changes. A status check that fails is tried again at the next poll;
 * after `maxFailedChecks` in a row the CLI stops following, with the last failure's message and exit
 * code (no answer: exit 3) and a line saying that the job was not stopped and how to see it. With
 * `--wait-timeout`, the CLI stops following once that long has passed (exit 3), the same way.
 */
export function followJob(ctx: CommandContext, client: ApiClient, jobGuid: string, wait: WaitOptions) {
  let lastError: unknown;
  const machine = importJobMachine.provide({
    actors: {
      getStatus: fromPromise(({ input }) =>
        client.call(importGetJobStatus, { query: { JobGuid: input.jobGuid } }).catch((error: unknown) => {
          lastError = error;
          throw error;
        }),
      ),
    },
  });
  return new Promise<ImportJob>((resolve, reject) => {
    const actor = createActor(machine, { input: { jobGuid, pollIntervalMs: wait.pollInterval } });
    let label = "";
    // --wait-timeout: the wait ends, the job does not (nothing here can stop it at the server).
    const deadline =
      wait.waitTimeout === undefined
        ? undefined
        : setTimeout(() => {
            actor.stop();
            const status = actor.getSnapshot().context.status;
            const known = status === "Unknown" ? "before its status was known; it" : `it is ${status}, and`;
            reject(
              new CliError(
                `Stopped waiting for job ${jobGuid} after ${wait.waitTimeout! / 1000} s (--wait-timeout): ${known} goes on at the server: \`varia import status ${jobGuid}\` shows it`,
                exitCodes.serverFailed,
              ),
            );
          }, wait.waitTimeout);
    const settle =
      <T>(done: (value: T) => void) =>
      (value: T) => {
        clearTimeout(deadline);
        done(value);
      };
    resolve = settle(resolve);
    reject = settle(reject);
    actor.subscribe({
      next(snapshot) {
        if (snapshot.context.failedChecks >= maxFailedChecks) {
          actor.stop();
          const failure = describeFailure(lastError, ctx.options.timeout);
          reject(
            new CliError(failure.message, failure.exitCode, [
              ...failure.details,
              `Stopped waiting for job ${jobGuid} after ${maxFailedChecks} status checks in a row failed; the job itself goes on at the server: \`varia import status ${jobGuid}\` shows it`,
            ]),
          );
          return;
        }
        if (snapshot.status === "done") {
          const job = snapshot.output?.job;
          if (job) resolve(job);
          else reject(new CliError(`Could not follow job ${jobGuid}`, exitCodes.serverFailed));
          return;
        }
        const now = jobStatusLabels[snapshot.context.status];
        if (now !== label) {
          label = now;
          ctx.terminal.note(`${now}...`);
        }
      },
      error: reject,
    });
    actor.start();
  });
}
