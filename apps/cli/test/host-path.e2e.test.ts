import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, runVariaAsync as varia } from "./running-server";

/**
 * Where the built `varia` sends its calls for a host with a path (a server behind a proxy under
 * `/varia/`, or an address pasted with the API's `/api`): a real HTTP server records each call's path
 * and refuses it (401), which ends the command.
 */
let server: Server;
const paths: string[] = [];
let origin = "";

beforeAll(async () => {
  server = createServer((request, response) => {
    paths.push(request.url ?? "");
    response.writeHead(401, { "content-type": "application/json" });
    response.end(JSON.stringify({ message: "Unauthorized" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const env = (host: string) =>
  cleanEnv({
    VARIA_CONFIG_DIR: mkdtempSync(join(tmpdir(), "varia-host-")),
    VARIA_HOST: host,
    VARIA_TOKEN: "t",
  });

describe("a host with a path", () => {
  it.each([
    ["/varia/", "/varia/api/Account/AuthorisedPing"],
    ["/varia", "/varia/api/Account/AuthorisedPing"],
    ["/api", "/api/Account/AuthorisedPing"],
    ["/api/", "/api/Account/AuthorisedPing"],
    ["/varia/api/", "/varia/api/Account/AuthorisedPing"],
    ["//varia//", "/varia/api/Account/AuthorisedPing"],
    ["", "/api/Account/AuthorisedPing"],
  ])("%s is called at %s, /api once", async (path, called) => {
    const seen = paths.length;
    const run = await varia(["whoami"], env(`${origin}${path}`));
    expect(run.status).toBe(2);
    expect(paths.slice(seen)).toEqual([called]);
  });

  it("is joined the same by login, and an address with a query, a fragment or a user is refused", async () => {
    const seen = paths.length;
    const login = await varia(["login", "--host", `${origin}/varia/api/`, "--token", "t"], env(origin));
    expect(login.status).toBe(2);
    expect(paths.slice(seen)).toEqual(["/varia/api/Account/AuthorisedPing"]);

    for (const [host, why] of [
      [`${origin}/varia?tenant=acme`, "no query (?) or fragment (#)"],
      [`${origin}/varia#top`, "no query (?) or fragment (#)"],
      [origin.replace("http://", "http://me:secret@"), "no user name or password in the address"],
    ] as const) {
      const refused = await varia(["whoami"], env(host));
      expect([refused.status, refused.stderr]).toEqual([
        1,
        expect.stringContaining(`Invalid VARIA_HOST '${host}': ${why}`),
      ]);
    }
    expect(paths.length).toBe(seen + 1);
  });
});
