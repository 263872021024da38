import { type Command, Option } from "commander";
import { integerAtLeast } from "../../filters/filter-options";
import type { Lazy } from "../../program";

/** `varia smoke`: is every tenant up, signed in and answering in time? For CI. */
export function defineSmoke(program: Command, lazy: Lazy) {
  program
    .command("smoke")
    .description(
      "Smoke-test tenants: AuthorisedPing, PermissionPing, ActualPeriods, OverviewKpi and the report list, each timed; exit 0 only when every tenant passes",
    )
    .option(
      "--tenant <names>",
      "the tenants, comma-separated (with --host-pattern); or name profiles with --profile a,b",
    )
    .option(
      "--host-pattern <url>",
      "each tenant's address, {tenant} standing for its name, e.g. https://{tenant}.example.com",
    )
    .addOption(
      new Option("--max-ms <ms>", "the budget of each call; a slower call fails")
        .argParser(integerAtLeast(1))
        .default(2000),
    )
    .addOption(
      new Option("--concurrency <n>", "tenants checked at once").argParser(integerAtLeast(1)).default(4),
    )
    .option(
      "--junit <file>",
      "also write the results as JUnit XML: a testsuite per tenant, a testcase per call",
    )
    .addHelpText(
      "after",
      "\nEach tenant's token: $VARIA_TOKEN_<TENANT> (upper-case, other characters as _), else the profile named\n" +
        "after the tenant. With --profile a,b the profiles' own hosts and tokens are used. Calls are made once,\n" +
        "without retries. Exit 2 when a tenant refused a call, 3 when one failed, was unreachable or slow.\n",
    )
    .action(lazy(() => import("./run-smoke").then((m) => m.runSmoke)));
}
