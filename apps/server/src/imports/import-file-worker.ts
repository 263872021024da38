import { parentPort, workerData } from "node:worker_threads";
import { type ReadImportOptions, readImportFile } from "./read-import-file";
import type { ToReader, WorkerMessage } from "./read-import-file-in-worker";

/**
 * The entry of a reader thread. A thread may be started ahead of need (`warmUp`): it then reads a
 * small generated file once, so that the code that reads a real one runs compiled from its first
 * line, and waits for "start". It reads a file by its path, or the bytes the server's thread hands
 * over while an upload arrives. Batches handed over but not yet taken: at most `aheadLimit` (an
 * import running), or any number (a file read while it is uploaded, before its import runs).
 */
interface Start {
  type: "start";
  path: string | null;
  options: ReadImportOptions;
  aheadLimit: number | null;
}

const port = parentPort!;
let start: Start | undefined;
let credit = 0;
let wake: (() => void) | undefined;
const chunks: Uint8Array[] = [];
let ended = false;
port.on("message", (message: ToReader | Start) => {
  if (message === "more") credit++;
  else if (message === "end") ended = true;
  else if (message instanceof Uint8Array) chunks.push(message);
  else start = message;
  wake?.();
});
const waitForMessage = () => new Promise<void>((resolve) => (wake = resolve));

/** The bytes the server's thread hands over, in order, until it says "end". */
async function* uploaded(): AsyncGenerator<Uint8Array> {
  for (;;) {
    const chunk = chunks.shift();
    if (chunk) yield chunk;
    else if (ended) return;
    else await waitForMessage();
  }
}

const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

/** A few thousand lines of every kind the fast path reads, read and thrown away. */
async function warmUp() {
  const rows = [
    "InvoiceDate,InvoiceNumber,LineNumber,ClientCode,ClientName,ItemCode,ItemName,StockType,Quantity,UnitPrice,Amount,Cost,Salesperson,ServiceFrom,ServiceTo,RecordType,Category",
  ];
  for (let i = 0; i < 20_000; i++)
    rows.push(
      `2024-${String((i % 12) + 1).padStart(2, "0")}-01,W-${i >> 2},${(i % 4) + 1},C${i % 300},Client ${i % 300},I${i % 20},Item ${i % 20},${i % 5 ? "Subscription" : "Hourly"},${(i % 9) + 1},${i % 90}.5,${i % 3 ? "" : `${i % 70}.25`},${i % 4}.00,${i % 6 ? `Rep ${i % 6}` : ""},${i % 10 ? "," : "2024-01-01,2024-12-31"},Actual,${i % 2 ? "Recurring" : ""}`,
    );
  const reading = readImportFile(
    (async function* () {
      yield Buffer.from(`${rows.join("\n")}\n`);
    })(),
  );
  while (!(await reading.next()).done);
}

try {
  if ((workerData as { warmUp?: boolean } | undefined)?.warmUp) await warmUp();
  while (!start) await waitForMessage();
  const { path, options, aheadLimit } = start;
  credit += aheadLimit ?? Number.POSITIVE_INFINITY;
  const reading = readImportFile(path ?? uploaded(), options);
  for (;;) {
    const next = await reading.next();
    if (next.done) {
      post({ type: "done", summary: next.value });
      break;
    }
    while (credit <= 0) await waitForMessage();
    credit--;
    const buffers = new Set(next.value.copy.map((chunk) => chunk.buffer as ArrayBuffer));
    post({ type: "batch", batch: next.value }, [...buffers]);
  }
} catch (error) {
  post({ type: "failed", message: error instanceof Error ? error.message : String(error) });
}
port.close();
