import { expect, it, vi } from "vitest";
import { apiTokenCalls, describeWithServer, localFetch } from "./harness";

/**
 * Keeping a tenant's data right month after month, over real HTTP with an API token: a corrected
 * file imported over the first, an import taken away by a restore and its file sent again.
 */
const header =
  "InvoiceDate,InvoiceNumber,LineNumber,ClientCode,ClientName,ItemCode,StockType,Quantity,Amount";
const file = (...rows: string[]) => `${[header, ...rows].join("\n")}\n`;

const october = file(
  "2025-10-05,UP-1,1,CEL,Célestine Café,PRO,Subscription,2,200.00",
  "2025-10-05,UP-1,2,CEL,Célestine Café,SUP,Hourly,1,50.00",
);
// October corrected: both lines again (one amount changed) and a line the first file forgot.
const octoberCorrected = file(
  "2025-10-05,UP-1,1,CEL,Célestine Café,PRO,Subscription,2,210.00",
  "2025-10-05,UP-1,2,CEL,Célestine Café,SUP,Hourly,1,50.00",
  "2025-10-05,UP-1,3,CEL,Célestine Café,ADD,Subscription,1,30.00",
);
const november = file("2025-11-05,UP-2,1,ZOE,Zoë Ångström AB,PRO,Subscription,1,99.00");

describeWithServer("a tenant's data kept right", (ctx) => {
  const api = apiTokenCalls(ctx);
  const { call, token } = api;

  async function upload(tenant: string, content: string, name: string, key?: string) {
    const answer = await api.upload(tenant, content, { name, ...(key ? { key } : {}) });
    expect(answer.status).toBe(200);
    return answer.json as { jobGuid: string; duplicate: boolean };
  }

  async function finished(tenant: string, jobGuid: string) {
    let job: Record<string, unknown> = {};
    await vi.waitFor(
      async () => {
        job = (await call(tenant, `/api/Import/GetJobStatus?JobGuid=${jobGuid}`)).json;
        expect(["Completed", "Failed", "FailedPermanently"]).toContain(job.status);
      },
      { timeout: 30_000, interval: 50 },
    );
    return job;
  }

  async function restore(tenant: string, backupID: string) {
    const queued = await call(tenant, `/api/Backup/Restore?backupID=${backupID}`, { method: "POST" });
    expect(queued.status).toBe(200);
    return finished(tenant, queued.json.jobGuid);
  }

  async function invoiceNumbers(tenant: string) {
    const raw = await call(tenant, "/api/variance/Data/ExportRawData");
    return raw.text
      .split("\n")
      .slice(1)
      .filter(Boolean)
      .map((line) => line.split(",").slice(1, 3).join("/"));
  }

  it("says how many of a re-imported file's lines replaced stored ones and how many are new", async () => {
    const first = await finished("reimport", (await upload("reimport", october, "october.csv")).jobGuid);
    expect(first).toMatchObject({ status: "Completed", rowsImported: 2, rowsReplaced: 0 });
    const corrected = await upload("reimport", octoberCorrected, "october.csv");
    expect(corrected.duplicate).toBe(false);
    expect(await finished("reimport", corrected.jobGuid)).toMatchObject({
      status: "Completed",
      rowsImported: 3,
      rowsReplaced: 2,
    });
    // The list of jobs says the same of each.
    const jobs = (await call("reimport", "/api/Import/GetJobs")).json as { rowsReplaced: number | null }[];
    expect(jobs.map((j) => j.rowsReplaced)).toEqual([2, 0]);
  });

  it("names the import each backup was taken before by its job, so that a script can undo the one it uploaded", async () => {
    const first = await upload("undo", october, "october.csv");
    await finished("undo", first.jobGuid);
    const made = (await call("undo", "/api/Backup/Create", { method: "POST" })).json;
    expect(made).toMatchObject({ reason: "OnDemand", importJobGuid: null });
    const corrected = await upload("undo", octoberCorrected, "october.csv");
    await finished("undo", corrected.jobGuid);
    const backups = (await call("undo", "/api/Backup/BackupList")).json as {
      backupID: string;
      reason: string;
      importJobGuid: string | null;
    }[];
    expect(backups.map((b) => [b.reason, b.importJobGuid])).toEqual([
      ["BeforeImport", corrected.jobGuid],
      ["OnDemand", null],
      ["BeforeImport", first.jobGuid],
    ]);
    // Undo the corrected file: the backup taken before its job.
    const before = backups.find((b) => b.importJobGuid === corrected.jobGuid)!;
    expect(await restore("undo", before.backupID)).toMatchObject({ status: "Completed", rowsImported: 2 });
    expect(await invoiceNumbers("undo")).toEqual(["UP-1/1", "UP-1/2"]);
  });

  it("imports a file again, under its own key, once a restore of a snapshot took its lines away", async () => {
    await finished("restored", (await upload("restored", october, "october.csv")).jobGuid);
    const before = (await call("restored", "/api/Backup/Create", { method: "POST" })).json;
    const first = await upload("restored", november, "november.csv", "2025-11");
    await finished("restored", first.jobGuid);
    expect(await invoiceNumbers("restored")).toEqual(["UP-1/1", "UP-1/2", "UP-2/1"]);

    // Back to the backup made by hand: November's lines are gone, so its file is not "already uploaded".
    expect(await restore("restored", before.backupID)).toMatchObject({ status: "Completed" });
    expect(await invoiceNumbers("restored")).toEqual(["UP-1/1", "UP-1/2"]);
    const again = await upload("restored", november, "november.csv", "2025-11");
    expect(again).toMatchObject({ duplicate: false });
    expect(again.jobGuid).not.toBe(first.jobGuid);
    expect(await finished("restored", again.jobGuid)).toMatchObject({ status: "Completed", rowsImported: 1 });
    expect(await invoiceNumbers("restored")).toEqual(["UP-1/1", "UP-1/2", "UP-2/1"]);
    // Sent once more while its lines are stored, it is the no-op a retry should be.
    expect(await upload("restored", november, "november.csv", "2025-11")).toEqual({
      jobGuid: again.jobGuid,
      status: "Completed",
      duplicate: true,
    });
  });

  it("frees the key of an import after a restore that a later undo walks back over", async () => {
    const october1 = await upload("walk", october, "october.csv");
    await finished("walk", october1.jobGuid);
    // A restore (of a backup made by hand) between October and November.
    const made = (await call("walk", "/api/Backup/Create", { method: "POST" })).json;
    await restore("walk", made.backupID);
    const nov = await upload("walk", november, "november.csv", "nov");
    await finished("walk", nov.jobGuid);
    // Undo October: the walk puts back the snapshot taken before that restore (which takes
    // November away with it), then undoes October.
    const backups = (await call("walk", "/api/Backup/BackupList")).json as {
      backupID: string;
      reason: string;
      importFileName: string | null;
    }[];
    const beforeOctober = backups.find((b) => b.importFileName === "october.csv")!;
    const undone = await restore("walk", beforeOctober.backupID);
    expect(undone).toMatchObject({ status: "Completed", rowsImported: 0 });
    expect(await invoiceNumbers("walk")).toEqual([]);
    for (const [content, name, key] of [
      [november, "november.csv", "nov"],
      [october, "october.csv", undefined],
    ] as const) {
      const again = await upload("walk", content, name, key);
      expect(again.duplicate).toBe(false);
      await finished("walk", again.jobGuid);
    }
    expect(await invoiceNumbers("walk")).toEqual(["UP-1/1", "UP-1/2", "UP-2/1"]);
  });
  it("starts every CSV download with UTF-8's byte order mark, and takes a raw export back as an import", async () => {
    await finished("bom", (await upload("bom", october, "october.csv")).jobGuid);
    const bytes = async (path: string, init: RequestInit = {}) => {
      const response = await localFetch(`${ctx().tenantUrl("bom")}${path}`, {
        ...init,
        headers: {
          authorization: `Bearer ${await token("bom")}`,
          ...(init.headers as Record<string, string>),
        },
      });
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type"), path).toBe("text/csv; charset=utf-8");
      return Buffer.from(await response.arrayBuffer());
    };
    const mark = Buffer.from([0xef, 0xbb, 0xbf]);
    const raw = await bytes("/api/variance/Data/ExportRawData");
    const downloads = {
      raw,
      template: await bytes("/api/Import/Template"),
      report: await bytes("/api/variance/Report/ExportReport", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          reportID: "mrr-by-client",
          dateFrom: "2025-09",
          dateTo: "2025-10",
          format: "csv",
        }),
      }),
    };
    for (const [name, file] of Object.entries(downloads)) {
      expect(file.subarray(0, 3), name).toEqual(mark);
      // Once, before the header: no mark doubled, none within.
      expect(file.indexOf(mark, 3), name).toBe(-1);
    }
    expect(raw.subarray(3).toString("utf8")).toMatch(
      /^InvoiceDate,InvoiceNumber,LineNumber,ClientCode,ClientName,/,
    );
    expect(raw.toString("utf8")).toContain("Célestine Café");
    // The export, mark and all, imported again: the same lines, each replacing itself.
    const again = await upload("bom", raw.toString("utf8"), "export.csv");
    expect(await finished("bom", again.jobGuid)).toMatchObject({
      status: "Completed",
      rowsImported: 2,
      rowsReplaced: 2,
    });
  });
});
