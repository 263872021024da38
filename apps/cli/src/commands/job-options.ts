import { Option } from "commander";
import { parseSeconds } from "../filters/filter-options";

/** `--poll-interval <seconds>` of the commands that follow a job with --wait: 5 s unless told, kept in ms. */
export function pollIntervalOption(): Option {
  return new Option("--poll-interval <seconds>", "seconds between status checks while waiting")
    .argParser(parseSeconds)
    .default(5000, "5");
}
