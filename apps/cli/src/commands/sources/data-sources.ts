import {
  type DataSource,
  describeSchedule,
  getDataSources,
  accountingPackageNames as packageNames,
  runSchedule,
} from "@varia/contracts";
import type { CommandContext } from "../../context";
import { CliError } from "../../errors/cli-error";
import { exitCodes } from "../../errors/exit-codes";
import { configuredClient } from "../../http/client";
import { formatTable } from "../../output/table";
import { followJob } from "../import/follow-job";
import { printJob } from "../import/job-outcome";

/** A source's schedule in words, with its time zone; or that it has none. */
function scheduleText(source: DataSource): string {
  return source.schedule ? `${describeSchedule(source.schedule)} (${source.schedule.timeZone})` : "none";
}

/** `varia sources list`: Integration/GetDataSources. */
export async function runSourcesList(ctx: CommandContext) {
  const { client } = configuredClient(ctx);
  const sources = await client.call(getDataSources, { query: {} });
  if (ctx.options.json) return ctx.terminal.json(sources);
  if (sources.length === 0)
    return ctx.terminal.out("No data sources: this organisation imports from CSV files");
  ctx.terminal.out(
    formatTable([
      ["ID", "NAME", "PACKAGE", "SCHEDULE", "LAST JOB"],
      ...sources.map((s) => [
        s.id,
        s.name,
        packageNames[s.integrationType],
        scheduleText(s),
        s.lastJobGuid ?? "none",
      ]),
    ]),
  );
}

/** The source a user named: by id, or by its name without regard to case; refused when none or several match. */
function pick(sources: DataSource[], named: string): DataSource {
  const byId = sources.find((s) => s.id === named);
  if (byId) return byId;
  const byName = sources.filter((s) => s.name.toLowerCase() === named.toLowerCase());
  if (byName.length === 1) return byName[0]!;
  const names = sources.map((s) => `${s.name} (${s.id})`).join(", ") || "none";
  throw new CliError(
    byName.length > 1
      ? `Several data sources are named '${named}': give its id. Data sources: ${names}`
      : `No data source '${named}'. Data sources: ${names}`,
    exitCodes.refused,
  );
}

interface RunOptions {
  wait?: boolean;
  pollInterval: number;
  waitTimeout?: number;
}

/** `varia sources run`: Integration/RunSchedule; with --wait, follows the job as `import upload --wait` does. */
export async function runSourcesRun(ctx: CommandContext, [named]: string[], options: RunOptions) {
  const { client } = configuredClient(ctx);
  const source = pick(await client.call(getDataSources, { query: {} }), named!);
  const queued = await client.call(runSchedule, { body: { dataSourceId: source.id } });
  if (!options.wait) {
    if (ctx.options.json) ctx.terminal.json(queued);
    else ctx.terminal.out(`Queued as job ${queued.jobGuid} (varia import status ${queued.jobGuid})`);
    return;
  }
  ctx.terminal.note(`Importing ${source.name} as job ${queued.jobGuid}`);
  printJob(ctx, await followJob(ctx, client, queued.jobGuid, options));
}
