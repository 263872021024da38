import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { Agent, fetch as undiciFetch } from "undici";
import { loopbackLookup } from "../src/http/loopback-lookup";

// The server is a separate program in these tests, as it is for a user: started through its own bin.
export const serverBin = join(import.meta.dirname, "..", "..", "server", "bin", "varia-server.js");
export const cliBin = join(import.meta.dirname, "..", "bin", "varia.js");

export interface RunningServer {
  child: ChildProcess;
  /** `http://localhost:PORT`. */
  url: string;
  port: number;
}

/**
 * The environment of a `varia-server` of a test's own: the embedded database in `dataDir`, no
 * demo organisation (each test creates the tenants it needs), and no log lines.
 */
export function emptyServerEnv(dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    VARIA_DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    DATABASE_URL: "",
    VARIA_SEED_DEMO: "false",
  };
}

/** Starts `varia-server start` on a free port (or `port`); resolves once it says where it runs. */
export function startServer(env: NodeJS.ProcessEnv, port = 0): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [serverBin, "start", "--port", String(port)], { env });
    let output = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      output += chunk;
      const match = /running at (http:\/\/localhost:(\d+))/.exec(output);
      // The demo organisation and the admin socket exist by the time the server says where it runs.
      if (match?.[1]) resolve({ child, url: match[1], port: Number(match[2]) });
    });
    child.on("exit", (code) => reject(new Error(`the server exited with ${code}: ${output}`)));
  });
}

/** Stops a server and waits until its process has gone. */
export function stopServer(server: RunningServer | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    server.child.once("exit", () => resolve());
    server.child.kill("SIGTERM");
  });
}

/**
 * A tenant's own address on a server: `http://<tenant>.localhost:PORT`. Each token is used on its
 * own tenant's host, as the server requires of API tokens.
 */
export function tenantUrl(server: RunningServer, tenant: string): string {
  return `http://${tenant}.localhost:${server.port}`;
}

/** `varia-server` admin commands (through the running server's admin socket); answers stdout. */
export function admin(env: NodeJS.ProcessEnv, args: string[], input?: string): string {
  const result = spawnSync(process.execPath, [serverBin, ...args], { env, encoding: "utf8", input });
  if (result.status !== 0) throw new Error(`varia-server ${args.join(" ")}: ${result.stderr}`);
  return result.stdout;
}

/** A new organisation with its admin, and an API token of that admin. */
export function createTenant(env: NodeJS.ProcessEnv, tenant: string): { email: string; token: string } {
  const email = `ops@${tenant}.example.com`;
  admin(
    env,
    ["org", "create", "--tenant", tenant, "--name", `${tenant} Ltd`, "--admin-email", email],
    "a long enough password\n",
  );
  return { email, token: tokenFor(env, tenant, email) };
}

/** An API token of a user, from `varia-server token create`. */
export function tokenFor(env: NodeJS.ProcessEnv, tenant: string, email: string, name = "cli test"): string {
  return JSON.parse(
    admin(env, ["token", "create", "--tenant", tenant, "--email", email, "--name", name, "--json"]),
  ).token as string;
}

const loopback = new Agent({ connect: { lookup: loopbackLookup as never } });

/** fetch that reaches `*.localhost` (the test's own calls beside the CLI's). */
export function tenantFetch(url: string, init: RequestInit = {}) {
  return undiciFetch(url, {
    ...(init as object),
    dispatcher: loopback,
  } as never) as unknown as Promise<Response>;
}

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `varia` as a user does, with `env` as its whole environment. */
export function runVaria(args: string[], env: NodeJS.ProcessEnv, input?: string): Run {
  const result = spawnSync(process.execPath, [cliBin, ...args], {
    env,
    encoding: "utf8",
    timeout: 120_000,
    input,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Runs the built `varia` without blocking this process: for a test that serves the CLI's calls
 * itself (an HTTP server of its own in the test's process).
 */
export function runVariaAsync(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliBin, ...args], { env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** The environment of a user with no Varia settings of their own (none of the test runner's). */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: "C.UTF-8" };
  return { ...env, ...extra };
}
