import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cleanEnv,
  createTenant,
  emptyServerEnv,
  type RunningServer,
  runVaria,
  startServer,
  stopServer,
  tenantUrl,
} from "./running-server";

/**
 * Exit 4: an import that fails for a reason other than its data. The database itself refuses the
 * import's invoice lines (a trigger, put there while the server was stopped, as a full or broken store would):
 * the server tries the job three times, ends it FailedPermanently, and `varia import upload --wait`
 * says that an unexpected error ended it (the database's words stay in the server's log) and exits
 * 4, where a file with bad rows exits 2.
 */
describe("a job that fails for a reason other than its data", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "varia-cli-job-failure-"));
  const home = mkdtempSync(join(tmpdir(), "varia-cli-job-failure-home-"));
  const serverEnv = emptyServerEnv(dataDir);
  let server: RunningServer;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    server = await startServer(serverEnv);
    const { token } = createTenant(serverEnv, "acme");
    await stopServer(server);
    // The embedded database has one owner: the server is stopped while the trigger is put in.
    const database = new PGlite(join(dataDir, "data"));
    await database.exec(`
      create function refuse_cells() returns trigger language plpgsql as $$
        begin raise exception 'could not extend the table: no space left on the device'; end $$;
      create trigger refuse_cells before insert on monthly_cube
        for each row execute function refuse_cells();
    `);
    await database.close();
    server = await startServer(serverEnv);
    env = cleanEnv({ HOME: home, VARIA_HOST: tenantUrl(server, "acme"), VARIA_TOKEN: token });
  }, 120_000);
  afterAll(async () => {
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  it("exits 4 after the job's retries, saying an unexpected error ended it; --json gives the job", () => {
    const file = join(home, "lines.csv");
    writeFileSync(
      file,
      "InvoiceDate,InvoiceNumber,ClientCode,ItemCode,StockType,Quantity,Amount\n2025-06-01,A-1,C1,I1,Subscription,1,10\n",
    );
    const run = runVaria(["import", "upload", file, "--wait", "--poll-interval", "0.2"], env);
    expect(run.status, run.stderr).toBe(4);
    expect(run.stdout).toBe("");
    // The database's own words stay in the server's log (docs/api.md, "Import jobs").
    expect(run.stderr).toContain(
      "\nJob failed: The import failed 3 times: an unexpected error on the server\n",
    );
    expect(run.stderr).not.toContain("no space left");
    expect(run.stderr).toContain("Uploading lines.csv (");
    const json = runVaria(
      ["--json", "import", "upload", file, "--wait", "--poll-interval", "0.2", "--idempotency-key", "2"],
      env,
    );
    expect(json.status).toBe(4);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: "FailedPermanently", errorCount: 0, errors: [] });
    const status = runVaria(["import", "status", JSON.parse(json.stdout).jobGuid], env);
    expect(status.status).toBe(4);
  });
});
