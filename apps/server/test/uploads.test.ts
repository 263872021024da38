import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { createOrganisation, createTokenForUser } from "../src/admin/organisations";
import { loadConfig } from "../src/config";
import { invoiceColumns } from "../src/imports/invoice-columns";
import { startServer } from "../src/server";
import { describeWithServer, localFetch, openTestDatabase, testDatabaseKinds } from "./harness";

const uploadsOf = (dataDir: string) => join(dataDir, "uploads");
const filesIn = (folder: string) => (existsSync(folder) ? readdirSync(folder).sort() : []);

describeWithServer("uploads cut short", (ctx) => {
  /** Starts a multipart upload of `declared` bytes, sends `sent` of them, and returns the socket. */
  async function startUpload(tenant: string, declared: number, sent: number) {
    const org = await ctx().createOrganisation(tenant);
    const { token } = await createTokenForUser(ctx().database.db, { tenant, email: org.email, name: "t" });
    const port = new URL(ctx().url).port;
    const head =
      '--XX\r\nContent-Disposition: form-data; name="csv"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n';
    const socket = connect(Number(port), "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", resolve));
    socket.write(
      `POST /api/import/upload HTTP/1.1\r\nHost: ${tenant}.localhost:${port}\r\n` +
        `Authorization: Bearer ${token}\r\nContent-Type: multipart/form-data; boundary=XX\r\n` +
        `Content-Length: ${declared}\r\n\r\n${head}`,
    );
    socket.write(`${invoiceColumns.join(",")}\n${"x".repeat(sent)}`);
    return socket;
  }

  for (const [label, declared] of [
    ["a small upload", 1024 * 1024],
    ["a large upload read while it arrives", 8 * 1024 * 1024],
  ] as const) {
    it(`removes the partial file of ${label} whose client goes away`, async () => {
      const uploads = uploadsOf(ctx().config.dataDir);
      const socket = await startUpload(`gone${declared}`, declared, 256 * 1024);
      // The file is on disk while the upload runs.
      await vi.waitFor(() => expect(filesIn(uploads)).toHaveLength(1), { timeout: 10_000, interval: 20 });
      socket.destroy();
      await vi.waitFor(() => expect(filesIn(uploads)).toEqual([]), { timeout: 10_000, interval: 20 });
      const jobs = await ctx().database.db.selectFrom("import_jobs").select("id").execute();
      expect(jobs).toEqual([]);
    });
  }
});

for (const kind of testDatabaseKinds()) {
  describe(`uploads left over at start [${kind}]`, () => {
    it("are removed before the server takes uploads; a queued job keeps its file", async () => {
      const dataDir = mkdtempSync(join(tmpdir(), "varia-sweep-"));
      const { database, drop } = await openTestDatabase(kind);
      try {
        const org = await createOrganisation(database.db, {
          tenant: "sweep",
          name: "Sweep Ltd",
          adminEmail: "admin@sweep.example.com",
          adminPassword: "a long sweep password",
        });
        const uploads = uploadsOf(dataDir);
        mkdirSync(uploads, { recursive: true });
        const hourAgo = new Date(Date.now() - 3600_000);
        // A file cut short an hour ago, and one a moment ago (another server's upload, on PostgreSQL).
        const old = join(uploads, `${randomUUID()}.csv`);
        writeFileSync(old, "InvoiceDate,Inv");
        utimesSync(old, hourAgo, hourAgo);
        const recent = join(uploads, `${randomUUID()}.csv`);
        writeFileSync(recent, "InvoiceDate,Inv");
        // A job queued before the stop: its file stays for it, however old.
        const queued = join(uploads, `${randomUUID()}.csv`);
        writeFileSync(
          queued,
          `${invoiceColumns.join(",")}\n2025-05-01,INV-1,1,C1,Client,PRO,Pro,Subscription,1,,10.00,,,,,Actual,Recurring\n`,
        );
        utimesSync(queued, hourAgo, hourAgo);
        const jobId = randomUUID();
        await database.db
          .insertInto("import_jobs")
          .values({
            organisation_id: org.organisationId,
            id: jobId,
            user_id: null,
            status: "Pending",
            file_name: "queued.csv",
            file_path: queued,
            file_sha256: "queued",
            idempotency_key: "queued",
          })
          .execute();

        const server = await startServer(
          loadConfig({ PORT: "0", HOST: "127.0.0.1", VARIA_DATA_DIR: dataDir, LOG_LEVEL: "silent" }),
          { database, logger: false },
        );
        try {
          expect(existsSync(old)).toBe(false);
          // Only a server that owns the folder alone (PGlite) removes a file written a moment ago.
          expect(existsSync(recent)).toBe(kind === "postgres");
          // The queued job found its file: it imports it, then removes it.
          await vi.waitFor(
            async () =>
              expect(
                await database.db
                  .selectFrom("import_jobs")
                  .select(["status", "rows_imported"])
                  .where("id", "=", jobId)
                  .executeTakeFirstOrThrow(),
              ).toEqual({ status: "Completed", rows_imported: 1 }),
            { timeout: 20_000, interval: 50 },
          );
        } finally {
          await server.close();
        }
      } finally {
        await drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
}

describeWithServer("malformed uploads", (ctx) => {
  it("answers 400 naming the upload, never 500, to a multipart body that is not one", async () => {
    const org = await ctx().createOrganisation("broken");
    const { token } = await createTokenForUser(ctx().database.db, {
      tenant: "broken",
      email: org.email,
      name: "t",
    });
    const head = '--XX\r\nContent-Disposition: form-data; name="csv"; filename="a.csv"\r\n\r\n';
    const cases: [string, string, string][] = [
      ["no boundary", "multipart/form-data", "garbage"],
      ["an empty boundary", "multipart/form-data; boundary=", "garbage"],
      ["garbage", "multipart/form-data; boundary=XX", "\u0000\u0001 not multipart at all"],
      ["no closing boundary", "multipart/form-data; boundary=XX", `${head}InvoiceDate\n`],
      ["a part without headers", "multipart/form-data; boundary=XX", "--XX\r\n\r\nabc\r\n--XX--\r\n"],
      ["no parts", "multipart/form-data; boundary=XX", "--XX--\r\n"],
      [
        "a file name with NUL",
        "multipart/form-data; boundary=XX",
        '--XX\r\nContent-Disposition: form-data; name="csv"; filename="a\u0000.csv"\r\n\r\nx\r\n--XX--\r\n',
      ],
      [
        "a file name of 300 characters",
        "multipart/form-data; boundary=XX",
        `--XX\r\nContent-Disposition: form-data; name="csv"; filename="${"a".repeat(296)}.csv"\r\n\r\nx\r\n--XX--\r\n`,
      ],
      ["an empty body", "multipart/form-data; boundary=XX", ""],
    ];
    for (const [label, type, body] of cases) {
      const answer = await localFetch(`${ctx().tenantUrl("broken")}/api/import/upload`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": type },
        body,
      });
      const json = (await answer.json()) as { message: string; errors?: { field: string }[] };
      expect(answer.status, `${label}: ${json.message}`).toBe(400);
      expect(json.errors?.[0]?.field, label).toBe("csv");
    }
    expect(filesIn(uploadsOf(ctx().config.dataDir))).toEqual([]);
  });
});
