import { type ChildProcess, spawn } from "node:child_process";
import { request as httpRequest } from "node:http";
import { join } from "node:path";

// The server is a separate program in these tests, as it is for a user: started through its own bin.
export const serverBin = join(import.meta.dirname, "..", "..", "server", "bin", "varia-server.js");
export const cliBin = join(import.meta.dirname, "..", "bin", "varia.js");

/** Starts `varia-server start` on a free port; resolves once it says where it runs. */
export function startServer(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [serverBin, "start", "--port", "0"], { env });
    let output = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      output += chunk;
      const match = /running at (http:\/\/localhost:\d+)/.exec(output);
      if (match?.[1] && /Sign in as/.test(output)) resolve({ child, url: match[1] });
    });
    child.on("exit", (code) => reject(new Error(`the server exited with ${code}: ${output}`)));
  });
}

/** The preload that lets a `varia` process reach `*.localhost` (see resolve-localhost.mjs). */
export const resolveLocalhost = join(import.meta.dirname, "resolve-localhost.mjs");

/** A tenant's site on the server at `url` (`http://localhost:PORT` → `http://<tenant>.localhost:PORT`). */
export function tenantUrl(url: string, tenant: string): string {
  const address = new URL(url);
  address.hostname = `${tenant}.localhost`;
  return address.origin;
}

/**
 * `fetch` for a tenant's site: Node does not resolve `*.localhost`, so the request goes to
 * 127.0.0.1 with the tenant's host name in the Host header, and the answer is read whole.
 */
export async function tenantFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const target = new URL(url);
  const request = new Request(url, init);
  const body = init.body === undefined || init.body === null ? undefined : await request.arrayBuffer();
  const headers: Record<string, string> = { host: target.host };
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (body) headers["content-length"] = String(body.byteLength);
  return new Promise<Response>((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: target.port,
        method: request.method,
        path: target.pathname + target.search,
        headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
              answerHeaders.append(name, v);
          resolve(
            new Response(Buffer.concat(chunks), { status: res.statusCode ?? 0, headers: answerHeaders }),
          );
        });
      },
    );
    req.on("error", reject);
    req.end(body ? Buffer.from(body) : undefined);
  });
}
