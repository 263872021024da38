#!/usr/bin/env node
// The `varia` command: the built CLI (dist/, made by `npm ci`, `npm start` or
// `npm run build -w @varia/cli`) on the repository's pinned Node 24, with V8's compile cache.
// Without a build it runs the TypeScript sources through tsx, which starts several times slower.
import { existsSync } from "node:fs";
import module from "node:module";

const built = new URL("../dist/varia.js", import.meta.url);
if (Number(process.versions.node.split(".")[0]) >= 24 && existsSync(built)) {
  module.enableCompileCache?.();
  await import(built.href);
} else {
  const { launch } = await import("../../../tooling/launch-ts.mjs");
  await launch(import.meta.url, new URL("../src/bin.ts", import.meta.url));
}
