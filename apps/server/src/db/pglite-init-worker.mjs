// Creates a PGlite data directory on a thread of its own (see `openDatabase`): creating the
// cluster grows PGlite's WebAssembly memory to about half a gigabyte, which never shrinks while
// its instance lives, and this thread's instance ends with the thread.
import { workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";

const db = new PGlite(workerData.dataDir, { postgresqlconf: workerData.settings });
await db.waitReady;
await db.close();
