import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CommandContext } from "../../context";
import { CliError } from "../../errors/cli-error";
import { exitCodes } from "../../errors/exit-codes";
import { clientFor } from "../../http/client";
import { Terminal } from "../../output/terminal";
import { followJob, maxFailedChecks } from "./follow-job";

/**
 * Following a job when the server stops answering (a real HTTP server that takes each status check
 * and never answers it): the CLI gives up after `maxFailedChecks` checks, saying what it waited for
 * and that the job itself was not stopped.
 */
const held: ServerResponse[] = [];
const paths: string[] = [];
const server = createServer((request, response) => {
  paths.push(request.url ?? "");
  held.push(response);
});
let host = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const response of held) response.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A command's context whose notes (stderr) are kept, and what it registered to close. */
function commandContext() {
  const closers: (() => unknown)[] = [];
  const notes: string[] = [];
  const ctx: CommandContext = {
    options: { timeout: 100, color: false },
    terminal: new Terminal(
      { write: () => true },
      { write: (text) => notes.push(String(text)) },
      {
        quiet: false,
        colour: false,
        env: {},
      },
    ),
    env: {},
    onClose: (close) => void closers.push(close),
    exitWith: () => {},
  };
  return { ctx, closers, notes };
}

describe("following a job", () => {
  it("stops after the status checks time out, naming the call, and says the job goes on", async () => {
    const { ctx, closers } = commandContext();
    const jobGuid = "3f2a9c1e-0000-4000-8000-000000000001";
    // Each check is sent once here (the CLI's own client retries a GET first: its waits are real time).
    const client = clientFor(ctx, { host, token: "t", profile: null }, { retry: false });
    try {
      const error = await followJob(ctx, client, jobGuid, { pollInterval: 20 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(CliError);
      const failure = error as CliError;
      expect(paths).toHaveLength(maxFailedChecks);
      const path = paths[0]!.split("?")[0];
      expect(failure.message).toBe(`${host} did not answer GET ${path} within 0.1 s (--timeout)`);
      expect(failure.exitCode).toBe(exitCodes.serverFailed);
      expect(failure.details).toEqual([
        `Stopped waiting for job ${jobGuid} after 3 status checks in a row failed; the job itself goes on at the server: \`varia import status ${jobGuid}\` shows it`,
      ]);
    } finally {
      for (const close of closers) await close();
    }
  });
  it("stops at --wait-timeout while the job still runs, with exit 3, saying the job goes on", async () => {
    // A job that runs for longer than the pipeline waits: every status check answers Running.
    const running = createServer((request, response) => {
      const jobGuid = new URL(request.url ?? "", "http://x").searchParams.get("JobGuid");
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          jobGuid,
          kind: "Import",
          status: "Running",
          fileName: "lines.csv",
          rowsImported: null,
          rowsReplaced: null,
          errors: [],
          errorCount: 0,
          message: null,
          createdAt: new Date().toISOString(),
          finishedAt: null,
        }),
      );
    });
    await new Promise<void>((resolve) => running.listen(0, "127.0.0.1", resolve));
    const { ctx, closers, notes } = commandContext();
    const origin = `http://127.0.0.1:${(running.address() as AddressInfo).port}`;
    const client = clientFor(ctx, { host: origin, token: "t", profile: null });
    const jobGuid = "3f2a9c1e-0000-4000-8000-000000000002";
    try {
      const error = await followJob(ctx, client, jobGuid, { pollInterval: 20, waitTimeout: 300 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(CliError);
      expect([(error as CliError).message, (error as CliError).exitCode]).toEqual([
        `Stopped waiting for job ${jobGuid} after 0.3 s (--wait-timeout): it is Running, and goes on at the server: \`varia import status ${jobGuid}\` shows it`,
        exitCodes.serverFailed,
      ]);
      expect(notes).toContain("Job is running...\n");
    } finally {
      for (const close of closers) await close();
      await new Promise<void>((resolve) => running.close(() => resolve()));
    }
  });
});
