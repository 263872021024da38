// Type-checks every workspace with its own tsconfig, so each package is checked with only the
// libraries it declares (the web app gets the DOM, the server does not).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const { workspaces } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const dirs = workspaces.flatMap((pattern) => {
  const base = pattern.replace("/*", "");
  return spawnSync("ls", [join(root, base)], { encoding: "utf8" })
    .stdout.split("\n")
    .filter(Boolean)
    .map((name) => join(root, base, name));
});
dirs.push(join(root, "e2e"), join(root, "tooling"));
let failed = 0;
for (const dir of dirs) {
  if (!existsSync(join(dir, "tsconfig.json"))) continue;
  const tsc = join(root, "node_modules/.bin/tsc");
  const result = spawnSync(tsc, ["-p", dir, "--noEmit"], { stdio: "inherit" });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
