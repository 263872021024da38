import { chmodSync, rmSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { join } from "node:path";

/**
 * The running server's admin socket: a Unix socket in the data folder (mode 0600, so only the
 * owner of the files may use it) that runs admin commands against the database the server holds.
 */
export function adminSocketPath(dataDir: string) {
  return join(dataDir, "admin.sock");
}

export type AdminHandler = (command: string, args: Record<string, unknown>) => Promise<unknown>;

export async function listenAdminSocket(dataDir: string, handler: AdminHandler): Promise<Server> {
  const path = adminSocketPath(dataDir);
  rmSync(path, { force: true });
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", async () => {
      try {
        const { command, args } = JSON.parse(body) as { command: string; args: Record<string, unknown> };
        const result = await handler(command, args);
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ result }));
      } catch (error) {
        res
          .writeHead(400, { "content-type": "application/json" })
          .end(JSON.stringify({ error: (error as Error).message }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  chmodSync(path, 0o600);
  return server;
}

export function sendAdminCommand(
  dataDir: string,
  command: string,
  args: Record<string, unknown>,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        socketPath: adminSocketPath(dataDir),
        method: "POST",
        path: "/command",
        headers: { "content-type": "application/json" },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => {
          const parsed = JSON.parse(body) as { result?: unknown; error?: string };
          if (parsed.error) reject(new Error(parsed.error));
          else resolve(parsed.result);
        });
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify({ command, args }));
  });
}
