import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";

const buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5] as const;

interface Series {
  count: number;
  sum: number;
  bucketCounts: number[];
}

/** Whether the request carries the operator's metrics token (compared in constant time). */
function isOperator(authorization: string | undefined, token: string): boolean {
  const sent = /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1] ?? "";
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(sent), digest(token));
}

/**
 * Prometheus metrics at /metrics: requests and their durations by method, route pattern and status
 * (the pattern, never the path, so ids and tokens stay out), plus the process's memory. For the
 * operator only: served with `metricsToken` (VARIA_METRICS_TOKEN) to whoever sends it as a Bearer
 * token, on any host; without one configured, /metrics answers 404 and nothing is counted.
 */
export function registerMetrics(fastify: FastifyInstance, metricsToken: string | undefined) {
  if (!metricsToken) {
    // Not the web app's page either: plainly nothing here.
    fastify.get("/metrics", async (_request, reply) => reply.code(404).send({ message: "Not found" }));
    return;
  }
  const series = new Map<string, Series>();

  fastify.addHook("onResponse", async (request, reply) => {
    const route = request.routeOptions.url ?? "unmatched";
    if (route === "/metrics") return;
    const key = `method="${request.method}",route="${route}",status="${reply.statusCode}"`;
    let s = series.get(key);
    if (!s) {
      s = { count: 0, sum: 0, bucketCounts: buckets.map(() => 0) };
      series.set(key, s);
    }
    const seconds = reply.elapsedTime / 1000;
    s.count++;
    s.sum += seconds;
    buckets.forEach((bound, i) => {
      if (seconds <= bound) s.bucketCounts[i]!++;
    });
  });

  fastify.get("/metrics", async (request, reply) => {
    if (!isOperator(request.headers.authorization, metricsToken))
      return reply
        .code(401)
        .header("www-authenticate", 'Bearer realm="metrics"')
        .send({ message: "Unauthorized" });
    const lines = [
      "# HELP varia_http_request_duration_seconds HTTP request durations by method, route and status.",
      "# TYPE varia_http_request_duration_seconds histogram",
    ];
    for (const [labels, s] of series) {
      buckets.forEach((bound, i) => {
        lines.push(
          `varia_http_request_duration_seconds_bucket{${labels},le="${bound}"} ${s.bucketCounts[i]}`,
        );
      });
      lines.push(`varia_http_request_duration_seconds_bucket{${labels},le="+Inf"} ${s.count}`);
      lines.push(`varia_http_request_duration_seconds_sum{${labels}} ${s.sum}`);
      lines.push(`varia_http_request_duration_seconds_count{${labels}} ${s.count}`);
    }
    const memory = process.memoryUsage();
    lines.push("# HELP varia_process_resident_memory_bytes Resident memory of the server process.");
    lines.push("# TYPE varia_process_resident_memory_bytes gauge");
    lines.push(`varia_process_resident_memory_bytes ${memory.rss}`);
    lines.push("# HELP varia_process_heap_used_bytes V8 heap in use.");
    lines.push("# TYPE varia_process_heap_used_bytes gauge");
    lines.push(`varia_process_heap_used_bytes ${memory.heapUsed}`);
    return reply.type("text/plain; version=0.0.4").send(`${lines.join("\n")}\n`);
  });
}
