// Builds the web app when its build is missing or older than any source it is built from.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const built = join(root, "apps/web/dist/index.html");
const sources = [
  "apps/web/src",
  "apps/web/index.html",
  "apps/web/vite.config.ts",
  "packages/machines/src",
  "packages/api-client/src",
  "packages/contracts/src",
  "packages/period/src",
];

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((entry) => newest(join(path, entry))));
}

const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
const changedAt = Math.max(...sources.map((source) => newest(join(root, source))));
if (builtAt >= changedAt) {
  console.log("The web app is up to date.");
} else {
  const result = spawnSync("npm", ["run", "build", "-w", "@varia/web"], { stdio: "inherit", cwd: root });
  process.exit(result.status ?? 1);
}
