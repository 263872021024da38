import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Command } from "commander";
import { type AdminHandler, listenAdminSocket, sendAdminCommand } from "./admin/admin-socket";
import { runAdminCommand } from "./admin/commands";
import { countOrganisations, createOrganisation } from "./admin/organisations";
import { acquireOwnerLock } from "./admin/owner-lock";
import { loadConfig, type ServerConfig } from "./config";
import { convertQuickBooks } from "./connectors/quickbooks/convert-quickbooks";
import { openDatabase } from "./db/database";
import { migrate, OutdatedSchemaError } from "./db/migrate";
import { generateDemoCsv } from "./demo/generate-demo-data";
import { seedDemo } from "./demo/seed-demo";
import { prepareReaderThread } from "./imports/read-import-file-in-worker";
import { databaseTarget, startServer } from "./server";

const demoAdminEmail = "admin@demo.example.com";

async function readStdin(): Promise<string | undefined> {
  if (process.stdin.isTTY) return undefined;
  let data = "";
  for await (const chunk of process.stdin) data += chunk;
  return data.trim() || undefined;
}

function fail(message: string): never {
  process.stderr.write(`varia-server: ${message}\n`);
  process.exit(1);
}

/**
 * Runs an admin command against the database: directly when no server holds the embedded
 * database, or through the running server's admin socket when one does.
 */
async function withDatabase(config: ServerConfig, command: string, args: Record<string, unknown>) {
  if (!config.databaseUrl) {
    const lock = acquireOwnerLock(config.dataDir);
    if (!lock.acquired) {
      try {
        return await sendAdminCommand(config.dataDir, command, args);
      } catch (error) {
        const reason =
          (error as NodeJS.ErrnoException).code === "ENOENT"
            ? "it has no admin socket"
            : (error as Error).message;
        fail(
          `a running server (pid ${lock.pid}) holds the embedded database in ${config.dataDir}, and the command failed there: ${reason}`,
        );
      }
    }
    try {
      return await runDirect(config, command, args);
    } finally {
      lock.release();
    }
  }
  return runDirect(config, command, args);
}

async function runDirect(config: ServerConfig, command: string, args: Record<string, unknown>) {
  const database = await openDatabase(databaseTarget(config));
  try {
    await migrate(database);
    return await runAdminCommand(database, command, args, { dataDir: config.dataDir });
  } finally {
    await database.close();
  }
}

const program = new Command("varia-server").description("The Varia API server and its admin commands");

program
  .command("start")
  .description("Start the server (creates the demo organisation on first start)")
  .option("--port <port>", "port to listen on (env PORT, default 8080)")
  .option("--demo-mode", "run in demo mode (env VARIA_DEMO_MODE)")
  .action(async (options: { port?: string; demoMode?: boolean }) => {
    const env = { ...process.env };
    if (options.port !== undefined) env.PORT = options.port;
    if (options.demoMode) env.VARIA_DEMO_MODE = "true";
    const config = loadConfig(env);
    const lock = config.databaseUrl ? undefined : acquireOwnerLock(config.dataDir);
    if (lock && !lock.acquired) {
      fail(`another Varia server (pid ${lock.pid}) already uses the embedded database in ${config.dataDir}`);
    }
    // A database of an older schema is refused with how to recreate it (docs/storage.md).
    const server = await startServer(config).catch((error: Error) =>
      error instanceof OutdatedSchemaError ? fail(error.message) : Promise.reject(error),
    );
    // The thread that reads the next large upload, started and warmed up now rather than then.
    prepareReaderThread();
    let firstStart: string | undefined;
    if ((await countOrganisations(server.database.db)) === 0) {
      const demo = await createOrganisation(server.database.db, {
        tenant: "demo",
        name: "Demo Company",
        adminEmail: demoAdminEmail,
        adminName: "Demo Admin",
        adminPassword: config.demoAdminPassword,
        isDemo: false,
      });
      firstStart = demo.generatedPassword
        ? `Sign in as ${demo.adminEmail} with the password ${demo.generatedPassword} (shown only this once).`
        : `Sign in as ${demo.adminEmail} with the password from VARIA_DEMO_ADMIN_PASSWORD.`;
      if (config.seedDemoData) {
        // Through the import path, as a queued job: the server answers while it loads.
        const job = await seedDemo(server.jobs, config.dataDir, "demo");
        firstStart += `\nLoading three years of demo data (import job ${job.jobGuid}).`;
      }
    }
    const handler: AdminHandler = (command, args) =>
      runAdminCommand(server.database, command, args, { dataDir: config.dataDir, jobs: server.jobs });
    const adminSocket = lock ? await listenAdminSocket(config.dataDir, handler) : undefined;
    const port = new URL(server.url).port;
    process.stdout.write(
      `Varia is running at http://localhost:${port} (tenant sites: http://<tenant>.localhost:${port})\n`,
    );
    if (firstStart)
      process.stdout.write(`First start: created the demo organisation (tenant 'demo').\n${firstStart}\n`);

    let stopping = false;
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      // Whatever is still stuck 5 s after the grace, the process ends (see ServerConfig.shutdownGraceMs).
      setTimeout(() => {
        process.stderr.write("varia-server: the shutdown did not finish in time; exiting\n");
        if (lock?.acquired) lock.release();
        process.exit(1);
      }, config.shutdownGraceMs + 5_000).unref();
      adminSocket?.close();
      await server.close();
      if (lock?.acquired) lock.release();
      process.exit(0);
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });

program
  .command("migrate")
  .description("Apply the database migrations")
  .action(async () => {
    const config = loadConfig();
    const lock = config.databaseUrl ? undefined : acquireOwnerLock(config.dataDir);
    if (lock && !lock.acquired)
      fail(`a running server (pid ${lock.pid}) holds the embedded database; it migrated at start`);
    const database = await openDatabase(databaseTarget(config));
    try {
      const applied = await migrate(database);
      process.stdout.write(
        applied.length ? `Applied migrations ${applied.join(", ")}\n` : "The database is up to date\n",
      );
    } finally {
      await database.close();
      if (lock?.acquired) lock.release();
    }
  });

const org = program.command("org").description("Organisations");
org
  .command("create")
  .description("Create an organisation and its admin (password from stdin, or generated and printed once)")
  .requiredOption("--tenant <tenant>", "sub-domain name of the organisation")
  .requiredOption("--name <name>", "display name")
  .requiredOption("--admin-email <email>", "e-mail of the first admin")
  .option("--json", "print JSON")
  .action(async (options: { tenant: string; name: string; adminEmail: string; json?: boolean }) => {
    const password = await readStdin();
    const result = (await withDatabase(loadConfig(), "org.create", {
      tenant: options.tenant,
      name: options.name,
      "admin-email": options.adminEmail,
      password,
    }).catch((error: Error) => fail(error.message))) as Awaited<ReturnType<typeof createOrganisation>>;
    if (options.json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else {
      process.stdout.write(`Created organisation '${result.tenant}' with admin ${result.adminEmail}\n`);
      if (result.generatedPassword)
        process.stdout.write(`Password (shown once): ${result.generatedPassword}\n`);
    }
  });

program
  .command("seed-demo")
  .description("Load the generated demo business into an organisation, through the import path")
  .requiredOption("--tenant <tenant>", "the organisation")
  .option("--json", "print JSON")
  .action(async (options: { tenant: string; json?: boolean }) => {
    const result = (await withDatabase(loadConfig(), "seed-demo", { tenant: options.tenant }).catch(
      (error: Error) => fail(error.message),
    )) as { jobGuid: string; duplicate: boolean };
    if (options.json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else if (result.duplicate)
      process.stdout.write(`The demo data is already loaded (job ${result.jobGuid})\n`);
    else process.stdout.write(`Loading the demo data as import job ${result.jobGuid}\n`);
  });

program
  .command("demo-csv")
  .description("Write the generated demo business as an import CSV")
  .requiredOption("-o, --output <file>", "where to write it")
  .action(async (options: { output: string }) => {
    const csv = generateDemoCsv();
    await writeFile(options.output, csv);
    process.stdout.write(`Wrote ${csv.split("\n").length - 2} invoice lines to ${options.output}\n`);
  });

program
  .command("quickbooks-convert")
  .description(
    "Convert a QuickBooks export (invoice_data.csv, invoice_line_data.csv, item_data.csv) to an import CSV",
  )
  .requiredOption("--dir <folder>", "the folder with the three QuickBooks CSV files")
  .requiredOption("-o, --output <file>", "where to write the import CSV")
  .option("--json", "print JSON")
  .action(async (options: { dir: string; output: string; json?: boolean }) => {
    const read = (name: string) =>
      readFile(join(options.dir, name), "utf8").catch(() => fail(`Cannot read ${join(options.dir, name)}`));
    const converted = convertQuickBooks({
      invoices: await read("invoice_data.csv"),
      invoiceLines: await read("invoice_line_data.csv"),
      items: await read("item_data.csv"),
    });
    await writeFile(options.output, converted.csv);
    if (options.json) {
      process.stdout.write(
        `${JSON.stringify({ lineCount: converted.lineCount, skipped: converted.skipped })}\n`,
      );
      return;
    }
    process.stdout.write(`Wrote ${converted.lineCount} invoice lines to ${options.output}\n`);
    if (converted.skipped.length) {
      process.stdout.write(`Skipped ${converted.skipped.length} lines of invoice_line_data.csv:\n`);
      for (const s of converted.skipped) process.stdout.write(`  line ${s.line}: ${s.reason}\n`);
    }
  });

const token = program.command("token").description("API tokens");
token
  .command("create")
  .description("Create an API token for a user (printed once)")
  .requiredOption("--tenant <tenant>", "the user's organisation")
  .requiredOption("--email <email>", "the user's e-mail")
  .requiredOption("--name <name>", "a name for the token")
  .option("--json", "print JSON")
  .action(async (options: { tenant: string; email: string; name: string; json?: boolean }) => {
    const result = (await withDatabase(loadConfig(), "token.create", {
      tenant: options.tenant,
      email: options.email,
      name: options.name,
    }).catch((error: Error) => fail(error.message))) as { id: string; name: string; token: string };
    if (options.json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else process.stdout.write(`${result.token}\n`);
  });

await program.parseAsync(process.argv);
