import { parentPort, workerData } from "node:worker_threads";
import { type ReadImportOptions, readImportFile } from "./read-import-file";
import type { ToReader, WorkerMessage } from "./read-import-file-in-worker";

/**
 * The entry of a reader thread. It reads a file by its path, or the bytes the server's thread
 * hands over while an upload arrives. Batches handed over but not yet taken: at most `aheadLimit`
 * (an import running), or any number (a file read while it is uploaded, before its import runs).
 */
const port = parentPort!;
const { path, options, aheadLimit } = workerData as {
  path: string | null;
  options: ReadImportOptions;
  aheadLimit: number | null;
};
let credit = aheadLimit ?? Number.POSITIVE_INFINITY;
let wake: (() => void) | undefined;
const chunks: Uint8Array[] = [];
let ended = false;
port.on("message", (message: ToReader) => {
  if (message === "more") credit++;
  else if (message === "end") ended = true;
  else chunks.push(message);
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

try {
  const reading = readImportFile(path ?? uploaded(), options);
  for (;;) {
    const next = await reading.next();
    if (next.done) {
      const cube = next.value.cube;
      post(
        { type: "done", summary: next.value },
        Object.values(cube).map((column) => column.buffer as ArrayBuffer),
      );
      break;
    }
    while (credit <= 0) await waitForMessage();
    credit--;
    post({ type: "batch", batch: next.value }, [next.value.block.bytes.buffer as ArrayBuffer]);
  }
} catch (error) {
  post({ type: "failed", message: error instanceof Error ? error.message : String(error) });
}
port.close();
