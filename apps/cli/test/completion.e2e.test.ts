import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeConfigFile } from "../src/config/config-file";
import { cleanEnv, cliBin, runVaria } from "./running-server";

/**
 * `varia completion bash|zsh|fish`, loaded into the real shells (Debian's bash, zsh and fish; CI
 * installs zsh and fish) and asked what comes next after what a person typed.
 */
const has = (shell: string) => spawnSync("sh", ["-c", `command -v ${shell}`]).status === 0;

describe("shell completion", () => {
  const home = mkdtempSync(join(tmpdir(), "varia-cli-completion-"));
  const bin = join(home, "bin");
  const env = cleanEnv({ HOME: home, PATH: `${bin}:${process.env.PATH}` });
  const script = (shell: string) => {
    const run = runVaria(["completion", shell], env);
    expect(run.status, run.stderr).toBe(0);
    const path = join(home, `varia.${shell}`);
    writeFileSync(path, run.stdout);
    return path;
  };

  beforeAll(() => {
    // `varia` on the PATH, as an installed CLI is, so the scripts can ask it for the profiles.
    mkdirSync(bin);
    writeFileSync(join(bin, "varia"), `#!/bin/sh\nexec "${process.execPath}" "${cliBin}" "$@"\n`);
    chmodSync(join(bin, "varia"), 0o755);
    writeConfigFile(join(home, ".config", "varia", "config.json"), {
      profiles: {
        alpha: { host: "http://alpha.localhost:1", token: "varia_alpha" },
        beta: { host: "http://beta.localhost:1", token: "varia_beta" },
      },
    });
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  /** What each shell offers after each line typed ("" when the line ends in a space). */
  const lines = {
    "varia ": ["login", "logout", "profiles", "whoami", "periods", "variance", "report", "import", "smoke"],
    "varia rep": ["report"],
    "varia report ": ["list", "run", "export"],
    "varia report run ": ["lost-clients", "mrr-by-client", "forecast"],
    "varia --profile ": ["alpha", "beta"],
    "varia smoke --max": ["--max-ms"],
    "varia variance --data-type ": ["Revenue", "Margin"],
    "varia completion ": ["bash", "zsh", "fish"],
    "varia --json smoke --tenant a,b --ho": ["--host-pattern"],
  };

  it("bash", () => {
    const path = script("bash");
    for (const [line, expected] of Object.entries(lines)) {
      const run = spawnSync(
        "bash",
        [
          "-c",
          `source ${path}; read -ra COMP_WORDS <<< "$LINE"; [[ "$LINE" == *" " ]] && COMP_WORDS+=(""); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _varia; printf '%s\\n' "\${COMPREPLY[@]}"`,
        ],
        { env: { ...env, LINE: line }, encoding: "utf8" },
      );
      expect(run.stderr).toBe("");
      const offered = run.stdout.split("\n").filter(Boolean);
      expect(offered, line).toEqual(expect.arrayContaining(expected));
      if (line.endsWith("rep") || line.endsWith("--max")) expect(offered).toEqual(expected);
    }
    const files = spawnSync(
      "bash",
      [
        "-c",
        `cd ${home}; source ${path}; COMP_WORDS=(varia import upload varia.); COMP_CWORD=3; _varia; echo "\${COMPREPLY[@]}"`,
      ],
      { env, encoding: "utf8" },
    );
    expect(files.stdout.trim().split(" ").sort()).toEqual(["varia.bash"]);
  });

  it.skipIf(!has("zsh"))("zsh", () => {
    const path = script("zsh");
    // compadd and _files exist only inside zsh's completion widgets: here they print what they get.
    const stubs = `compdef() { :; }; compadd() { [[ "$1" == "--" ]] && shift; print -rl -- "$@"; }; _files() { print -r -- __files__; }`;
    for (const [line, expected] of Object.entries(lines)) {
      const run = spawnSync(
        "zsh",
        [
          "-c",
          `${stubs}; source ${path}; words=(\${(z)LINE}); [[ "$LINE" == *" " ]] && words+=(""); CURRENT=\${#words}; _varia`,
        ],
        { env: { ...env, LINE: line }, encoding: "utf8" },
      );
      expect(run.stderr).toBe("");
      expect(run.stdout.split("\n").filter(Boolean), line).toEqual(expect.arrayContaining(expected));
    }
    const files = spawnSync(
      "zsh",
      ["-c", `${stubs}; source ${path}; words=(varia import upload ""); CURRENT=4; _varia`],
      { env, encoding: "utf8" },
    );
    expect(files.stdout.trim()).toBe("__files__");
  });

  it.skipIf(!has("fish"))("fish", () => {
    const path = script("fish");
    for (const [line, expected] of Object.entries(lines)) {
      const run = spawnSync(
        "fish",
        ["-c", `source ${path}; complete --do-complete "$LINE" | string split -f1 \\t`],
        { env: { ...env, LINE: line }, encoding: "utf8" },
      );
      expect(run.stderr).toBe("");
      const offered = run.stdout.split("\n").filter(Boolean);
      expect(offered, line).toEqual(expect.arrayContaining(expected));
      if (line.endsWith("rep") || line.endsWith("--max")) expect(offered).toEqual(expected);
    }
  });
});
