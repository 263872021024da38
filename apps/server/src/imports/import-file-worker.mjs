// The entry of the import file reader's worker thread: TypeScript through tsx, whatever started
// the server (tsx, vitest or a plain node with tsx registered).
import { register } from "tsx/esm/api";

register();
await import("./import-file-worker.ts");
