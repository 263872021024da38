import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type LineBatch, readImportFile } from "./read-import-file";
import { prepareReaderThread, readImportFileOnThread } from "./read-import-file-in-worker";
import { startUploadReading, takeUploadReading } from "./upload-readings";

const header =
  "InvoiceDate,InvoiceNumber,LineNumber,ClientCode,ClientName,ItemCode,ItemName,StockType,Quantity,UnitPrice,Amount,Cost,Salesperson,ServiceFrom,ServiceTo,RecordType,Category";

/** Lines with multi-byte names, quoted fields with newlines and service periods. */
function content(lines: number) {
  const rows = [header];
  for (let i = 0; i < lines; i++) {
    const client = i % 37;
    rows.push(
      `2025-${String((i % 12) + 1).padStart(2, "0")}-01,INV-${i >> 1},${(i % 2) + 1},C${client},"Café Ñandú ${client}, ""Ltd""",I${i % 5},"Plan\n€ ${i % 5}",Subscription,${(i % 9) + 1},${i % 50}.25,,,Rep ${client % 3},${i % 4 === 0 ? "2025-01-01,2025-12-31" : ","},Actual,`,
    );
  }
  return `${rows.join("\r\n")}\r\n`;
}

async function collect(reading: AsyncIterable<LineBatch>) {
  const batches: LineBatch[] = [];
  for await (const batch of reading) batches.push(batch);
  return batches;
}

describe("a file read while it is uploaded", () => {
  it("gives the batches and summary a read of the stored file gives, whatever the chunks", async () => {
    const text = content(3_000);
    const bytes = Buffer.from(text, "utf8");
    const path = join(mkdtempSync(join(tmpdir(), "varia-upload-")), "lines.csv");
    writeFileSync(path, bytes);

    const fromDisk = readImportFile(path, { batchLines: 700 });
    const diskBatches: LineBatch[] = [];
    let next = await fromDisk.next();
    for (; !next.done; next = await fromDisk.next()) diskBatches.push(next.value);
    const diskSummary = next.value;

    // Pieces of a prime size handed to the reader: records and multi-byte characters cut in two.
    const upload = startUploadReading({ batchLines: 700 }, 4093);
    expect(upload).not.toBeNull();
    // Another upload meanwhile is not read (one at a time).
    expect(startUploadReading()).toBeNull();
    // Chunks of odd sizes arrive.
    for (let at = 0, size = 1; at < bytes.length; at += size, size = (size * 7 + 13) % 4093) {
      upload!.push(bytes.subarray(at, at + size));
    }
    upload!.keep(path);
    const reading = takeUploadReading(path)!;
    expect(takeUploadReading(path)).toBeUndefined();
    const batches = await collect(reading);
    expect(batches.map((b) => b.dimensions)).toEqual(diskBatches.map((b) => b.dimensions));
    expect(batches.map((b) => Buffer.concat(b.copy).toString("base64"))).toEqual(
      diskBatches.map((b) => Buffer.concat(b.copy).toString("base64")),
    );
    expect(await reading.summary()).toEqual(diskSummary);
    expect(diskSummary).toMatchObject({ lines: 3_000, errorCount: 0 });
    await reading.close();
  });

  it("reads on a thread started and warmed up ahead of need as on a new one", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "varia-upload-")), "lines.csv");
    writeFileSync(path, content(2_000));
    const read = async () => {
      const reading = readImportFileOnThread(path, { batchLines: 500 }, true);
      const batches = await collect(reading);
      const summary = await reading.summary();
      await reading.close();
      return { batches, summary };
    };
    const fresh = await read();
    prepareReaderThread();
    const onSpare = await read();
    expect(onSpare).toEqual(fresh);
    expect(fresh.summary.lines).toBe(2_000);
    // Another spare follows: the next read works too.
    expect(await read()).toEqual(fresh);
  });

  it("is dropped when the upload is, and lets the next upload be read", async () => {
    const upload = startUploadReading();
    upload!.push(Buffer.from(`${header}\n`));
    upload!.discard();
    const next = startUploadReading();
    expect(next).not.toBeNull();
    next!.discard();
  });
});
