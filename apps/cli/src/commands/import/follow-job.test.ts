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

describe("following a job", () => {
  it("stops after the status checks time out, naming the call, and says the job goes on", async () => {
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
    const jobGuid = "3f2a9c1e-0000-4000-8000-000000000001";
    // Each check is sent once here (the CLI's own client retries a GET first: its waits are real time).
    const client = clientFor(ctx, { host, token: "t", profile: null }, { retry: false });
    try {
      const error = await followJob(ctx, client, jobGuid, 20).then(
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
});
