import { InvalidArgumentError, Option } from "commander";

function parsePollSeconds(value: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new InvalidArgumentError("a number of seconds above 0.");
  return seconds * 1000;
}

/** `--poll-interval <seconds>` of the commands that follow a job with --wait: 5 s unless told, kept in ms. */
export function pollIntervalOption(): Option {
  return new Option("--poll-interval <seconds>", "seconds between status checks while waiting")
    .argParser(parsePollSeconds)
    .default(5000, "5");
}
