import { type TenantResult, tenantPassed } from "./check-tenant";

/** Text for XML: the five special characters escaped, characters XML cannot hold dropped. */
export function xmlText(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML 1.0 forbids
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&apos;")
  );
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/**
 * The smoke test as JUnit XML, the format CI systems read: a testsuite per tenant (its host and
 * organisation as properties), a testcase per call timed in seconds, and a failure for each call
 * that was refused, failed or went over its budget, with the server's message.
 */
export function junitReport(results: readonly TenantResult[], maxMs: number): string {
  const count = (r: TenantResult) => r.checks.filter((c) => c.outcome !== "passed").length;
  const time = (r: TenantResult) => r.checks.reduce((sum, c) => sum + c.ms, 0);
  const tests = results.reduce((n, r) => n + r.checks.length, 0);
  const failures = results.reduce((n, r) => n + count(r), 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="varia smoke" tests="${tests}" failures="${failures}" errors="0" time="${seconds(
      results.reduce((s, r) => s + time(r), 0),
    )}">`,
  ];
  for (const result of results) {
    const hostname = (() => {
      try {
        return new URL(result.host).hostname;
      } catch {
        return result.host;
      }
    })();
    lines.push(
      `  <testsuite name="${xmlText(result.tenant)}" tests="${result.checks.length}" failures="${count(result)}" errors="0" skipped="0" time="${seconds(time(result))}" timestamp="${result.startedAt}" hostname="${xmlText(hostname)}">`,
      "    <properties>",
      `      <property name="host" value="${xmlText(result.host)}"/>`,
      `      <property name="organisation" value="${xmlText(result.organisation ?? "")}"/>`,
      `      <property name="maxMs" value="${maxMs}"/>`,
      `      <property name="passed" value="${tenantPassed(result)}"/>`,
      "    </properties>",
    );
    for (const check of result.checks) {
      const open = `    <testcase name="${xmlText(check.name)}" classname="varia.smoke.${xmlText(result.tenant)}" time="${seconds(check.ms)}"`;
      if (check.outcome === "passed") {
        lines.push(`${open}/>`);
        continue;
      }
      const message = check.message ?? check.outcome;
      lines.push(
        `${open}>`,
        `      <failure message="${xmlText(message)}" type="${check.outcome}">${xmlText(
          `${check.name} on ${result.host}: ${message}${check.status ? ` (HTTP ${check.status})` : ""}`,
        )}</failure>`,
        "    </testcase>",
      );
    }
    lines.push("  </testsuite>");
  }
  lines.push("</testsuites>", "");
  return lines.join("\n");
}
