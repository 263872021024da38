import { Option } from "commander";
import { parseSeconds } from "../filters/filter-options";

/** `--poll-interval <seconds>` of the commands that follow a job with --wait: 5 s unless told, kept in ms. */
export function pollIntervalOption(): Option {
  return new Option("--poll-interval <seconds>", "seconds between status checks while waiting")
    .argParser(parseSeconds)
    .default(5000, "5");
}

/** How --wait follows a job: its status checks' interval, and how long at most (ms; none unless told). */
export interface WaitOptions {
  pollInterval: number;
  waitTimeout?: number;
}

/**
 * `--wait-timeout <seconds>` of the commands that follow a job with --wait: a pipeline's bound on
 * the wait, after which the command stops following (exit 3) and the job goes on at the server.
 */
export function waitTimeoutOption(): Option {
  return new Option(
    "--wait-timeout <seconds>",
    "stop waiting after this long (exit 3; the job goes on at the server) (default: no limit)",
  ).argParser(parseSeconds);
}
