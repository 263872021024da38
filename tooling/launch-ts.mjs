// Runs a TypeScript entry with tsx on the Node the repository pins (the `node` package),
// whichever `node` launched the bin that calls this.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export async function launch(binUrl, entryUrl) {
  const major = Number(process.versions.node.split(".")[0]);
  if (major < 24) {
    const require = createRequire(binUrl);
    const pinned = join(dirname(require.resolve("node/package.json")), "bin", "node");
    const result = spawnSync(pinned, [fileURLToPath(binUrl), ...process.argv.slice(2)], { stdio: "inherit" });
    process.exit(result.status ?? 1);
  }
  const { register } = await import("tsx/esm/api");
  register();
  await import(fileURLToPath(entryUrl));
}
