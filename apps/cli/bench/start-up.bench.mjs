// How fast `varia` starts and answers (docs/benchmarks.md, "The CLI's start-up (issue 18)"):
// `varia --version` and `varia variance` on the demo tenant of a warm local server, 20 runs each,
// every run timed as a whole process (spawn to exit) with a monotonic clock. Budgets: --version
// < 150 ms, variance < 300 ms.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";

const here = import.meta.dirname;
const cliBin = join(here, "..", "bin", "varia.js");
const serverBin = join(here, "..", "..", "server", "bin", "varia-server.js");
const runs = 20;

spawnSync(process.execPath, [join(here, "..", "build.mjs")], { stdio: "inherit" });
const dataDir = mkdtempSync(join(tmpdir(), "varia-cli-bench-"));
const serverEnv = { ...process.env, VARIA_DATA_DIR: dataDir, LOG_LEVEL: "silent", DATABASE_URL: "" };
const server = spawn(process.execPath, [serverBin, "start", "--port", "0"], { env: serverEnv });
try {
  const port = await new Promise((resolve, reject) => {
    let output = "";
    server.stdout.on("data", (chunk) => {
      output += chunk;
      const match = /running at http:\/\/localhost:(\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    server.on("exit", (code) => reject(new Error(`the server exited with ${code}: ${output}`)));
  });
  const token = spawnSync(
    process.execPath,
    [
      serverBin,
      "token",
      "create",
      "--tenant",
      "demo",
      "--email",
      "admin@demo.example.com",
      "--name",
      "bench",
    ],
    { env: serverEnv, encoding: "utf8" },
  ).stdout.trim();
  const env = {
    PATH: process.env.PATH,
    HOME: dataDir,
    VARIA_HOST: `http://demo.localhost:${port}`,
    VARIA_TOKEN: token,
  };
  const varia = (args) => spawnSync(process.execPath, [cliBin, ...args], { env, encoding: "utf8" });
  // The demo data loads as an import job after the first start: wait for its months.
  for (let i = 0; ; i++) {
    const periods = varia(["--json", "periods"]);
    if (periods.status === 0 && JSON.parse(periods.stdout).periods.length >= 24) break;
    if (i > 600) throw new Error(`the demo data did not load: ${periods.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  const timed = (args) => {
    const started = process.hrtime.bigint();
    const run = varia(args);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (run.status !== 0) throw new Error(`varia ${args.join(" ")}: ${run.stderr}`);
    return ms;
  };
  const report = (name, args, budget) => {
    timed(args); // warm: the server's cube and memo, the compile cache
    const times = Array.from({ length: runs }, () => timed(args)).sort((a, b) => a - b);
    const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
    const mean = times.reduce((s, t) => s + t, 0) / times.length;
    const line = `${name.padEnd(26)} min ${times[0].toFixed(0)} ms, median ${at(0.5).toFixed(0)} ms, mean ${mean.toFixed(0)} ms, p90 ${at(0.9).toFixed(0)} ms, max ${times.at(-1).toFixed(0)} ms (budget ${budget} ms: ${at(0.5) < budget ? "met" : "MISSED"} by the median)`;
    console.log(line);
  };
  console.log(
    `varia start-up, ${runs} runs each, Node ${process.versions.node}, ${cpus().length} cores (${cpus()[0]?.model}), load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  report("varia --version", ["--version"], 150);
  report("varia variance", ["variance"], 300);
  report("varia variance --json", ["--json", "variance"], 300);
  report("varia periods", ["periods"], 300);
} finally {
  server.kill("SIGTERM");
  await new Promise((resolve) => server.once("exit", resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
