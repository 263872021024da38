// Load on a running server from a worker thread, so that the server's own thread measures nothing
// but its answers: autocannon with 20 connections cycling through a list of GET paths for a number
// of seconds, with the latencies' p50, p95 and p99. The benchmarks of analytics calls and of the
// drill-down pages both use it (docs/benchmarks.md).
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import autocannon from "autocannon";

export interface LoadJob {
  url: string;
  paths: string[];
  token: string;
  seconds: number;
}

export interface LoadResult {
  requests: number;
  non2xx: number;
  p50: number;
  p95: number;
  p99: number;
}

/** Runs `job` in a worker thread (this file) and answers its result. */
export function load(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: job, execArgv: process.execArgv });
    worker.once("message", resolve);
    worker.once("error", reject);
  });
}

function runLoad(job: LoadJob) {
  const times: number[] = [];
  let non2xx = 0;
  const instance = autocannon(
    {
      url: job.url,
      connections: 20,
      duration: job.seconds,
      headers: { authorization: `Bearer ${job.token}` },
      requests: job.paths.map((path) => ({ method: "GET", path })),
    },
    (error) => {
      if (error) throw error;
      times.sort((a, b) => a - b);
      const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? Number.NaN;
      parentPort!.postMessage({
        requests: times.length,
        non2xx,
        p50: at(0.5),
        p95: at(0.95),
        p99: at(0.99),
      } satisfies LoadResult);
    },
  );
  instance.on("response", (_client, statusCode, _bytes, responseTime) => {
    times.push(responseTime);
    if (statusCode < 200 || statusCode > 299) non2xx++;
  });
}

if (!isMainThread) runLoad(workerData as LoadJob);
