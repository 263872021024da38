import { runCli } from "./program";

// Stack traces of `--debug` point into the TypeScript sources (the build ships source maps).
if (process.argv.includes("--debug")) process.setSourceMapsEnabled(true);
// A reader that stops reading (`varia export raw -o - | head`) closes the pipe: what is left to
// write is dropped, and the command ends as it would have, with its own exit code, instead of
// Node's unhandled EPIPE (a stack trace and exit 1, the code of a usage error).
for (const stream of [process.stdout, process.stderr])
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
process.exitCode = await runCli(process.argv.slice(2));
