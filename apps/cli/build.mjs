// Builds the `varia` command into dist/: the entry and one chunk per command's runner (esbuild,
// code splitting), so `varia --version` loads a few kilobytes and a command only what it calls with.
// Run by `npm ci` (the root's prepare), `npm start`, the test suite's global setup, and by hand with
// `npm run build -w @varia/cli`.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const here = import.meta.dirname;
const outdir = join(here, "dist");
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { varia: join(here, "src", "bin.ts") },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node24",
  chunkNames: "chunks/[name]-[hash]",
  sourcemap: "linked",
  legalComments: "none",
  logLevel: "warning",
  // Bundled CommonJS packages (undici, commander) call require() for Node's own modules.
  banner: {
    js: "import { createRequire as __varia_createRequire } from 'node:module'; const require = __varia_createRequire(import.meta.url);",
  },
});
