import { type Command, Option } from "commander";
import { idArgument } from "../../filters/filter-options";
import type { Lazy } from "../../program";
import { pollIntervalOption, waitTimeoutOption } from "../job-options";

const connectionID = idArgument("a connection's id", "varia connections list");

/** `varia connections list|show|configure|import|disconnect`: the connections to accounting packages (docs/integration.md). */
export function defineConnections(program: Command, lazy: Lazy) {
  const connections = program
    .command("connections")
    .description(
      "The organisation's connections to accounting packages (QuickBooks, Xero): list, show, configure, import, disconnect",
    );
  connections
    .command("list")
    .description("List the connections, each with its data sources and responsible users")
    .action(lazy(() => import("./connections").then((m) => m.runConnectionsList)));
  connections
    .command("show")
    .argument("<connection>", "a connection's id (`varia connections list`)", connectionID)
    .description("Show one connection: its package, when it was connected, its sources and responsible users")
    .action(lazy(() => import("./connections").then((m) => m.runConnectionsShow)));
  connections
    .command("configure")
    .argument("<connection>", "a connection's id (`varia connections list`)", connectionID)
    .description(
      "List the connection's companies or organisations again at the provider: new ones are added, those no longer reached removed (their imported lines stay)",
    )
    .action(lazy(() => import("./connections").then((m) => m.runConnectionsConfigure)));
  connections
    .command("import")
    .argument("<connection>", "a connection's id (`varia connections list`)", connectionID)
    .description(
      "Import now from every data source of the connection, or from one (--source); with --wait, follow the jobs to their end",
    )
    .addOption(
      new Option("--source <id>", "only this data source of the connection (its id)").argParser(
        idArgument("a data source's id", "varia connections show"),
      ),
    )
    .option("--wait", "follow the jobs until they end: exit 4 when one fails")
    .addOption(pollIntervalOption())
    .addOption(waitTimeoutOption())
    .action(lazy(() => import("./connections").then((m) => m.runConnectionsImport)));
  connections
    .command("disconnect")
    .argument("<connection>", "a connection's id (`varia connections list`)", connectionID)
    .description(
      "Disconnect: revoke Varia's access at the provider and remove the connection's data sources and schedules (the invoice lines imported stay); asks for --yes",
    )
    .option("--yes", "do it (without it, nothing is changed)")
    .action(lazy(() => import("./connections").then((m) => m.runConnectionsDisconnect)));
}
