import { runCli } from "./program";

// Stack traces of `--debug` point into the TypeScript sources (the build ships source maps).
if (process.argv.includes("--debug")) process.setSourceMapsEnabled(true);
process.exitCode = await runCli(process.argv.slice(2));
