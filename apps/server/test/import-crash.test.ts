import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it, vi } from "vitest";
import { openDatabase } from "../src/db/database";
import { testDatabaseKinds } from "./harness";

const bin = join(import.meta.dirname, "..", "bin", "varia-server.js");
// Over the 4 MB from which an upload is read as it arrives: the import killed is one that took that
// reading, and the one after the restart reads the file from disk.
const rows = 100_000;

function bigFile(): string {
  const lines = ["InvoiceDate,InvoiceNumber,LineNumber,ClientCode,ItemCode,StockType,Quantity,Amount"];
  for (let i = 0; i < rows; i++) {
    lines.push(
      `2025-${String((i % 12) + 1).padStart(2, "0")}-01,INV-${Math.floor(i / 4)},${(i % 4) + 1},C${i % 500},I${i % 40},Subscription,${(i % 7) + 1},${(i % 97) + 10}.25`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Starts the server; `log` collects its JSON log lines (the running import announces itself there). */
function startServer(
  env: NodeJS.ProcessEnv,
  log: string[] = [],
): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "start", "--port", "0"], { env });
    let output = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      output += chunk;
      log.push(...chunk.split("\n").filter((line) => line.startsWith("{")));
      const match = /running at (http:\/\/localhost:\d+)/.exec(output);
      if (match?.[1]) resolve({ child, url: match[1] });
    });
    child.on("exit", (code) => reject(new Error(`the server exited with ${code}: ${output}`)));
  });
}

for (const kind of testDatabaseKinds()) {
  describe(`a server killed in the middle of an import [${kind}]`, () => {
    const dataDir = mkdtempSync(join(tmpdir(), "varia-crash-"));
    const dbName = `varia_crash_${randomBytes(4).toString("hex")}`;
    const baseUrl = process.env.TEST_DATABASE_URL ?? "";
    const databaseUrl =
      kind === "postgres" ? Object.assign(new URL(baseUrl), { pathname: `/${dbName}` }).toString() : "";
    const env = {
      ...process.env,
      VARIA_DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      DATABASE_URL: databaseUrl,
      VARIA_DEMO_ADMIN_PASSWORD: "a long enough password",
      VARIA_SEED_DEMO: "false",
    };
    let server: { child: ChildProcess; url: string } | undefined;

    afterAll(async () => {
      server?.child.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
      if (kind === "postgres") {
        const admin = new pg.Client({ connectionString: baseUrl });
        await admin.connect();
        await admin.query(`drop database if exists ${dbName} with (force)`);
        await admin.end();
      }
    });

    async function countLines(): Promise<number> {
      const database =
        kind === "postgres"
          ? await openDatabase({ kind: "postgres", url: databaseUrl })
          : await openDatabase({ kind: "pglite", dataDir: join(dataDir, "data") });
      try {
        const row = await database.db
          .selectFrom("invoice_lines")
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .executeTakeFirstOrThrow();
        return Number(row.n);
      } finally {
        await database.close();
      }
    }

    it("ends with the whole file or nothing, and the job reaches a final status after a restart", async () => {
      if (kind === "postgres") {
        const admin = new pg.Client({ connectionString: baseUrl });
        await admin.connect();
        await admin.query(`create database ${dbName}`);
        await admin.end();
      }
      const log: string[] = [];
      server = await startServer(env, log);
      const token = spawnSync(
        process.execPath,
        [bin, "token", "create", "--tenant", "demo", "--email", "admin@demo.example.com", "--name", "crash"],
        { env, encoding: "utf8" },
      ).stdout.trim();
      const headers = { authorization: `Bearer ${token}` };
      const form = new FormData();
      const file = bigFile();
      expect(Buffer.byteLength(file)).toBeGreaterThan(4 * 1024 * 1024);
      form.append("csv", new Blob([file]), "big.csv");
      const queued = (await (
        await fetch(`${server.url}/api/import/upload`, { method: "POST", body: form, headers })
      ).json()) as { jobGuid: string };
      const status = async (url: string) =>
        (await (
          await fetch(`${url}/api/Import/GetJobStatus?JobGuid=${queued.jobGuid}`, { headers })
        ).json()) as {
          status: string;
          rowsImported: number | null;
        };

      // Kill it once the import has started: its transaction is under way.
      await vi.waitFor(() => expect(log.some((line) => line.includes('"msg":"import started"'))).toBe(true), {
        timeout: 30_000,
        interval: 10,
      });
      server.child.kill("SIGKILL");
      await new Promise((resolve) => server!.child.once("exit", resolve));

      expect(await countLines()).toBe(0);

      server = await startServer(env);
      const url = server.url;
      await vi.waitFor(
        async () =>
          expect(["Completed", "Failed", "FailedPermanently"]).toContain((await status(url)).status),
        { timeout: 120_000, interval: 200 },
      );
      expect(await status(url)).toMatchObject({ status: "Completed", rowsImported: rows });
      server.child.kill("SIGTERM");
      await new Promise((resolve) => server!.child.once("exit", resolve));
      server = undefined;
      expect(await countLines()).toBe(rows);
    }, 240_000);
  });
}
