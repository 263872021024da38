import { parentPort, workerData } from "node:worker_threads";
import { type ReadImportOptions, readImportFile } from "./read-import-file";
import type { WorkerMessage } from "./read-import-file-in-worker";

/** Batches handed over but not yet taken: the reader stays at most this far ahead of the database. */
const aheadLimit = 2;

const port = parentPort!;
const { path, options } = workerData as { path: string; options: ReadImportOptions };
let credit = aheadLimit;
let wake: (() => void) | undefined;
port.on("message", (message: "more") => {
  if (message === "more") {
    credit++;
    wake?.();
  }
});

const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

try {
  const reading = readImportFile(path, options);
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
    while (credit === 0) await new Promise<void>((resolve) => (wake = resolve));
    credit--;
    post({ type: "batch", batch: next.value }, [next.value.block.bytes.buffer as ArrayBuffer]);
  }
} catch (error) {
  post({ type: "failed", message: error instanceof Error ? error.message : String(error) });
}
port.close();
