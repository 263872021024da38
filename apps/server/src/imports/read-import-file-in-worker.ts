import { Worker } from "node:worker_threads";
import {
  type ImportFileSummary,
  type LineBatch,
  type ReadImportOptions,
  readImportFile,
} from "./read-import-file";

export type WorkerMessage =
  | { type: "batch"; batch: LineBatch }
  | { type: "done"; summary: ImportFileSummary }
  | { type: "failed"; message: string };

/** What the server's thread sends a reader thread: a credit, a chunk of an upload, or its end. */
export type ToReader = "more" | "end" | Uint8Array;

/** An import file being read: its batches in order, then its summary. */
export interface ImportFileReading extends AsyncIterable<LineBatch> {
  /** The summary, once every batch has been taken. */
  summary(): Promise<ImportFileSummary>;
  /** Stops reading (the import failed or is done). */
  close(): Promise<void>;
}

/** Batches a reader thread may hand over before the import takes them. */
const aheadLimit = 2;

/**
 * Reads an import file on a worker thread (large files: checking and encoding a million lines
 * takes seconds of CPU that the database's side can use meanwhile, PGlite's above all, which runs
 * on the main thread) or on this one (small files, where starting a worker costs more than it saves).
 */
export function readImportFileOnThread(
  path: string,
  options: ReadImportOptions,
  inWorker: boolean,
): ImportFileReading {
  return inWorker ? readInWorker(path, options, aheadLimit).reading : readHere(path, options);
}

/**
 * Reads a file on a worker thread while its bytes arrive (`push`, then `end`), running ahead of any
 * import: the batches wait in memory until the import of the file takes them.
 */
export function readUploadOnThread(options: ReadImportOptions = {}, handOverBytes = 1 << 20) {
  const { worker, reading } = readInWorker(null, options, null);
  // The upload's chunks (tens of kilobytes) are copied into buffers of `handOverBytes` (a MiB),
  // each handed over whole: fewer, larger pieces for the reader, as a file read from disk gives it.
  let buffer = new Uint8Array(handOverBytes);
  let filled = 0;
  const handOver = () => {
    if (!filled) return;
    const full = filled === buffer.length ? buffer : buffer.slice(0, filled);
    worker.postMessage(full satisfies ToReader, [full.buffer]);
    buffer = new Uint8Array(handOverBytes);
    filled = 0;
  };
  return {
    reading,
    push(chunk: Uint8Array) {
      for (let at = 0; at < chunk.length; ) {
        const take = Math.min(chunk.length - at, buffer.length - filled);
        buffer.set(chunk.subarray(at, at + take), filled);
        filled += take;
        at += take;
        if (filled === buffer.length) handOver();
      }
    },
    end() {
      handOver();
      worker.postMessage("end" satisfies ToReader);
    },
  };
}

function readHere(path: string, options: ReadImportOptions): ImportFileReading {
  const reading = readImportFile(path, options);
  let summary: ImportFileSummary | undefined;
  return {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const next = await reading.next();
        if (next.done) {
          summary = next.value;
          return;
        }
        yield next.value;
      }
    },
    async summary() {
      if (!summary) throw new Error("the file has not been read to its end");
      return summary;
    },
    async close() {
      await reading.return(undefined as never);
    },
  };
}

const workerUrl = new URL("./import-file-worker.mjs", import.meta.url);

/** How long after a spare reader thread is used up the next one is started. */
const spareDelayMs = 1000;

/** A reader thread started ahead of need and warmed up (see `prepareReaderThread`). */
let spare: Worker | undefined;

/**
 * Starts a reader thread ahead of need (one per process), so that the next large file is read by a
 * thread that is running, its code compiled, instead of one that takes half a second to start.
 */
export function prepareReaderThread() {
  if (spare) return;
  spare = new Worker(workerUrl, { workerData: { warmUp: true } });
  // An idle spare keeps no process alive, and a spare that failed is replaced when next needed.
  spare.unref();
  const failed = spare;
  failed.once("exit", () => {
    if (spare === failed) spare = undefined;
  });
}

function readInWorker(path: string | null, options: ReadImportOptions, ahead: number | null) {
  let worker = spare;
  spare = undefined;
  if (worker) {
    worker.ref();
    // The next one is started once this one is done, a moment later: warming it up takes half a
    // second of CPU, which the end of the import this one read for (its commit) should not share.
    worker.once("exit", () => setTimeout(prepareReaderThread, spareDelayMs).unref());
  } else worker = new Worker(workerUrl);
  worker.postMessage({ type: "start", path, options, aheadLimit: ahead });
  const messages: WorkerMessage[] = [];
  let failure: Error | undefined;
  let waiting: (() => void) | undefined;
  const wake = () => {
    waiting?.();
    waiting = undefined;
  };
  worker.on("message", (message: WorkerMessage) => {
    messages.push(message);
    wake();
  });
  worker.on("error", (error) => {
    failure = error;
    wake();
  });
  worker.on("exit", (code) => {
    if (!messages.some((m) => m.type === "done" || m.type === "failed"))
      failure ??= new Error(`the import reader stopped (exit code ${code})`);
    wake();
  });
  async function take(): Promise<WorkerMessage> {
    for (;;) {
      const message = messages.shift();
      if (message) return message;
      if (failure) throw failure;
      await new Promise<void>((resolve) => (waiting = resolve));
    }
  }
  let summary: ImportFileSummary | undefined;
  const reading: ImportFileReading = {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const message = await take();
        if (message.type === "failed") throw new Error(message.message);
        if (message.type === "done") {
          summary = message.summary;
          return;
        }
        if (ahead !== null) worker.postMessage("more" satisfies ToReader);
        yield message.batch;
      }
    },
    async summary() {
      if (!summary) throw new Error("the file has not been read to its end");
      return summary;
    },
    async close() {
      await worker.terminate();
    },
  };
  return { worker, reading };
}
