import {
  accountingPackageNames,
  type Connection,
  configureConnection,
  deleteConnection,
  getConnectionByGuid,
  getResponsibilities,
  type ImportJob,
  listConnections,
  startImport,
} from "@varia/contracts";
import type { CommandContext } from "../../context";
import { CliError } from "../../errors/cli-error";
import { type ExitCode, exitCodes } from "../../errors/exit-codes";
import { configuredClient } from "../../http/client";
import { formatTable } from "../../output/table";
import { followJob } from "../import/follow-job";
import { jobExitCode, jobSummary } from "../import/job-outcome";

/** A connection's sources in words: their names, or that it reaches none. */
function sourceNames(connection: Connection): string {
  return connection.dataSources.map((s) => s.name).join(", ") || "none";
}

/** `varia connections list`: Connections/List. */
export async function runConnectionsList(ctx: CommandContext) {
  const { client } = configuredClient(ctx);
  const connections = await client.call(listConnections, {});
  if (ctx.options.json) return ctx.terminal.json(connections);
  if (connections.length === 0)
    return ctx.terminal.out("No connections: this organisation imports from CSV files");
  ctx.terminal.out(
    formatTable([
      ["ID", "PACKAGE", "CONNECTED", "SOURCES", "RESPONSIBLE"],
      ...connections.map((c) => [
        c.integrationGuid,
        accountingPackageNames[c.integrationType],
        c.connectedAt.slice(0, 10),
        sourceNames(c),
        String(c.responsibleUserIDs.length),
      ]),
    ]),
  );
}

/** `varia connections show`: Connections/GetConnectionByGuid. */
export async function runConnectionsShow(ctx: CommandContext, [guid]: string[]) {
  const { client } = configuredClient(ctx);
  const connection = await client.call(getConnectionByGuid, { params: { integrationGuid: guid! } });
  if (ctx.options.json) return ctx.terminal.json(connection);
  const responsible = await client.call(getResponsibilities, { params: { integrationGuid: guid! } });
  ctx.terminal.out(
    [
      `${accountingPackageNames[connection.integrationType]} connection ${connection.integrationGuid}`,
      `Connected: ${connection.connectedAt}`,
      `E-mailed when an import fails: ${responsible.map((u) => `${u.name} <${u.email}>${u.disabled ? " (disabled: not e-mailed)" : ""}`).join(", ") || "nobody responsible (admins, for scheduled imports)"}`,
      "",
      connection.dataSources.length
        ? formatTable([
            ["SOURCE ID", "NAME", "LAST JOB"],
            ...connection.dataSources.map((s) => [s.id, s.name, s.lastJobGuid ?? "none"]),
          ])
        : "No data sources",
    ].join("\n"),
  );
}

/**
 * `varia connections configure`: Connections/Configure, and what changed: the sources added and
 * removed, by name (the connection before and after).
 */
export async function runConnectionsConfigure(ctx: CommandContext, [guid]: string[]) {
  const { client } = configuredClient(ctx);
  const before = await client.call(getConnectionByGuid, { params: { integrationGuid: guid! } });
  const after = await client.call(configureConnection, { params: { integrationGuid: guid! } });
  if (ctx.options.json) return ctx.terminal.json(after);
  const ids = (c: Connection) => new Set(c.dataSources.map((s) => s.id));
  const added = after.dataSources.filter((s) => !ids(before).has(s.id)).map((s) => s.name);
  const removed = before.dataSources.filter((s) => !ids(after).has(s.id)).map((s) => s.name);
  const lines = [
    ...(added.length ? [`Added: ${added.join(", ")}`] : []),
    ...(removed.length ? [`Removed (their imported lines stay): ${removed.join(", ")}`] : []),
  ];
  ctx.terminal.out(
    lines.length
      ? lines.join("\n")
      : `No change: ${accountingPackageNames[after.integrationType]} reaches the same data sources (${sourceNames(after)})`,
  );
}

interface ImportOptions {
  source?: string;
  wait?: boolean;
  pollInterval: number;
  waitTimeout?: number;
}

/**
 * `varia connections import`: ImportJob/StartImport; with --wait, follows each job in turn (the
 * server runs them one after another) and exits with the worst outcome, as `import upload --wait`.
 */
export async function runConnectionsImport(ctx: CommandContext, [guid]: string[], options: ImportOptions) {
  const { client } = configuredClient(ctx);
  const queued = await client.call(startImport, {
    query: { integrationGuid: guid!, ...(options.source ? { dataSourceId: options.source } : {}) },
  });
  if (!options.wait) {
    if (ctx.options.json) return ctx.terminal.json(queued);
    if (queued.jobs.length === 0)
      return ctx.terminal.out("The connection has no data sources: nothing to import");
    return ctx.terminal.out(
      formatTable([["SOURCE ID", "JOB"], ...queued.jobs.map((j) => [j.dataSourceId, j.jobGuid])]),
    );
  }
  const ended: (ImportJob & { dataSourceId: string })[] = [];
  for (const job of queued.jobs) {
    ctx.terminal.note(`Importing data source ${job.dataSourceId} as job ${job.jobGuid}`);
    ended.push({
      dataSourceId: job.dataSourceId,
      ...(await followJob(ctx, client, job.jobGuid, options)),
    });
  }
  if (ctx.options.json) ctx.terminal.json({ jobs: ended });
  for (const job of ctx.options.json ? [] : ended) {
    if (jobExitCode(job) === exitCodes.ok) ctx.terminal.out(jobSummary(job));
    else ctx.terminal.error(jobSummary(job));
  }
  // The worst outcome: a failed job (4) over a file rejected for its data (2) over success.
  ctx.exitWith(
    ended.map(jobExitCode).reduce<ExitCode>((worst, code) => Math.max(worst, code) as ExitCode, exitCodes.ok),
  );
}

/**
 * `varia connections disconnect`: Connections/Delete, only with --yes (a pipeline that forgets it
 * changes nothing). The connection is read first, to name its package and sources, and to refuse an
 * unknown id before anything else.
 */
export async function runConnectionsDisconnect(
  ctx: CommandContext,
  [guid]: string[],
  options: { yes?: boolean },
) {
  const { client } = configuredClient(ctx);
  const connection = await client.call(getConnectionByGuid, { params: { integrationGuid: guid! } });
  const packageName = accountingPackageNames[connection.integrationType];
  if (!options.yes)
    throw new CliError(
      `Disconnecting revokes Varia's access at ${packageName} and removes the data sources of this connection (${sourceNames(connection)}) with their schedules; run again with --yes to disconnect`,
    );
  await client.call(deleteConnection, { params: { integrationGuid: guid! } });
  if (ctx.options.json)
    return ctx.terminal.json({
      disconnected: connection.integrationGuid,
      integrationType: connection.integrationType,
      dataSources: connection.dataSources.map((s) => s.name),
    });
  ctx.terminal.out(
    `Disconnected the ${packageName} connection: its data sources (${sourceNames(connection)}) and their schedules are removed; the invoice lines imported stay`,
  );
}
