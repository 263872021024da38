import { type ChildProcess, spawn } from "node:child_process";
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
