#!/usr/bin/env node
// Runs the CLI's TypeScript entry on the Node pinned by the repository (the `node` package),
// whichever `node` launched this file.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const entry = join(here, "..", "src", "bin.ts");
const major = Number(process.versions.node.split(".")[0]);

if (major < 24) {
  const require = createRequire(import.meta.url);
  const pinned = join(dirname(require.resolve("node/package.json")), "bin", "node");
  const result = spawnSync(pinned, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: "inherit",
  });
  process.exit(result.status ?? 1);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(entry);
}
