import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  /** The body as latin1 text (bytes kept one to one). */
  body: string;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/**
 * A real HTTP server on 127.0.0.1 and a free port, answering with whatever `handler` is set to and
 * recording every request it saw.
 */
export async function startTestServer() {
  const seen: SeenRequest[] = [];
  const state: { handler: Handler } = { handler: (_req, res) => res.writeHead(200).end() };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.setEncoding("latin1");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      state.handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    answer(handler: Handler) {
      state.handler = handler;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}
