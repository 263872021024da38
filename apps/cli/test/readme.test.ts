import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../src/program";

/** The README's CLI section lists every command `varia --help` has, each with an example. */
describe("the README's CLI section", () => {
  const readme = readFileSync(join(import.meta.dirname, "..", "..", "..", "README.md"), "utf8");
  const section = readme.slice(
    readme.indexOf("## The CLI"),
    readme.indexOf("\n## ", readme.indexOf("## The CLI") + 1),
  );
  const program = buildProgram(
    { stdout: { write: () => true }, stderr: { write: () => true }, env: {} },
    () => async () => {},
  );
  const leaves = (command: Command, path: string[] = []): string[] =>
    command.commands.length
      ? command.commands.flatMap((c) => leaves(c, [...path, c.name()]))
      : [path.join(" ")];

  it("has an example of every command, and of none that does not exist", () => {
    const examples = [
      ...section.matchAll(
        /^npx varia ((?:[a-z]+)(?: (?:list|run|export|upload|status|template|raw|create|revoke|show|import|add|configure|disconnect|download|restore|delete))?)/gm,
      ),
    ].map((m) => m[1]);
    expect(new Set(examples)).toEqual(new Set(leaves(program)));
  });

  it("names the exit codes as `varia --help` does", () => {
    for (const code of [
      "0 ok",
      "1 a usage error",
      "2 the server refused",
      "3 the server failed or could not be reached",
      "4 a job ended Failed or FailedPermanently",
    ])
      expect(section.replace(/\s+/g, " ")).toContain(code);
    let help = "";
    buildProgram(
      { stdout: { write: (t: string) => (help += t) }, stderr: { write: () => true }, env: {} },
      () => async () => {},
    )
      .exitOverride()
      .parseAsync(["--help"], { from: "user" })
      .catch(() => {});
    expect(help).toContain("4  a job ended Failed or FailedPermanently for a reason other than its data");
  });
});
