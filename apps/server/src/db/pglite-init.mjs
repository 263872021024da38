// Creates a PGlite data directory in a process of its own, started by `createPgliteCluster`
// (database.ts) with V8's baseline WebAssembly compiler only (docs/storage.md, "PGlite's memory").
// Arguments: the folder to create, then PGlite's settings as JSON.
import { PGlite } from "@electric-sql/pglite";

// The server that started this process is gone: stop (the folder it was creating is not used).
process.on("disconnect", () => process.exit(1));
const [dataDir, settings] = [process.argv[2], JSON.parse(process.argv[3])];
const db = new PGlite(dataDir, { postgresqlconf: settings });
await db.waitReady;
await db.close();
process.exit(0);
