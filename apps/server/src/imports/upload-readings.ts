import type { ReadImportOptions } from "./read-import-file";
import { type ImportFileReading, readUploadOnThread } from "./read-import-file-in-worker";

/**
 * Files read while they are uploaded. A large upload is handed to a reader thread as its bytes
 * arrive, so that checking and encoding its lines overlaps the upload instead of following it. The
 * upload is still written to disk and queued as a durable job: when its import runs in this process
 * it takes the reading (`takeUploadReading`, by the file's path) instead of reading the file again;
 * a reading nobody takes is dropped after `keepMs`, and an import run elsewhere (another server, or
 * this one after a restart) reads the file from disk. One upload is read at a time (the reader takes
 * a core).
 */
const readings = new Map<string, { reading: ImportFileReading; timer: NodeJS.Timeout }>();
let reading = false;
let taken = 0;

/** How long a finished reading waits for its import. */
export const keepMs = 10 * 60_000;

export interface UploadReading {
  push(chunk: Uint8Array): void;
  /** The upload is on disk at `path`: its import may take the reading. */
  keep(path: string): void;
  /** The upload failed or was a duplicate. */
  discard(): void;
}

/**
 * Starts reading an upload as it arrives (handed to the reader in pieces of `handOverBytes`); null
 * while another upload is being read.
 */
export function startUploadReading(
  options: ReadImportOptions = {},
  handOverBytes?: number,
): UploadReading | null {
  if (reading) return null;
  reading = true;
  const started = readUploadOnThread(options, handOverBytes);
  let done = false;
  const finish = () => {
    if (done) return false;
    done = true;
    reading = false;
    return true;
  };
  return {
    push: (chunk) => started.push(chunk),
    keep(path) {
      if (!finish()) return;
      started.end();
      const timer = setTimeout(() => {
        if (readings.delete(path)) void started.reading.close();
      }, keepMs);
      timer.unref();
      readings.set(path, { reading: started.reading, timer });
    },
    discard() {
      if (!finish()) return;
      void started.reading.close();
    },
  };
}

/** The reading of the upload at `path`, if this process read it while it arrived (taken once). */
export function takeUploadReading(path: string): ImportFileReading | undefined {
  const kept = readings.get(path);
  if (!kept) return undefined;
  readings.delete(path);
  clearTimeout(kept.timer);
  taken++;
  return kept.reading;
}

/** How many readings imports have taken in this process (a figure for tests and logs). */
export function uploadReadingsTaken() {
  return taken;
}
