// The allowed direction of imports (ARCHITECTURE.md, the table under the drawing): a package imports
// only those below it. This test fails when a workspace declares, imports or references (in its
// tsconfig.json, which `tsc -b` follows) a package it may not.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");

const allowed: Record<string, string[]> = {
  period: [],
  variance: ["period"],
  contracts: ["period"],
  "api-client": ["contracts", "period"],
  machines: ["contracts", "period"],
  server: ["contracts", "variance", "period"],
  web: ["machines", "api-client", "contracts", "period"],
  cli: ["machines", "api-client", "contracts", "period"],
};

const workspaces = ["packages", "apps"].flatMap((dir) =>
  readdirSync(join(root, dir)).map((name) => ({ name, dir: join(root, dir, name) })),
);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (entry === "node_modules" || entry === "dist" || entry === ".tsbuild") return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts)$/.test(entry) ? [path] : [];
  });
}

const importPattern = /(?:from|import)\s*\(?\s*["'](@varia\/[\w-]+|\.\.?\/[^"']*)["']/g;

describe("import direction", () => {
  it("knows every workspace", () => {
    expect(workspaces.map((w) => w.name).sort()).toEqual(Object.keys(allowed).sort());
  });

  it("the root tsconfig.json references every workspace, e2e and tooling, so `tsc -b` checks them all", () => {
    const config = JSON.parse(readFileSync(join(root, "tsconfig.json"), "utf8"));
    const references = config.references.map((r: { path: string }) => join(root, r.path));
    const expected = [...workspaces.map((w) => w.dir), join(root, "e2e"), join(root, "tooling")];
    expect(references.sort()).toEqual(expected.sort());
  });

  for (const { name, dir } of workspaces) {
    it(`${name} declares only the packages below it`, () => {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      const internal = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })
        .filter((d) => d.startsWith("@varia/"))
        .map((d) => d.slice("@varia/".length));
      expect(internal.filter((d) => !allowed[name]?.includes(d))).toEqual([]);
    });

    it(`${name}'s tsconfig.json references exactly the packages it may import`, () => {
      const config = JSON.parse(readFileSync(join(dir, "tsconfig.json"), "utf8"));
      const references = (config.references ?? []).map((r: { path: string }) => join(dir, r.path));
      const below = (allowed[name] ?? []).map((d) => workspaces.find((w) => w.name === d)?.dir);
      expect(references.sort()).toEqual(below.sort());
    });

    it(`${name} imports only the packages below it and never another's files`, () => {
      const offending: string[] = [];
      for (const file of sourceFiles(dir)) {
        const text = readFileSync(file, "utf8");
        for (const match of text.matchAll(importPattern)) {
          const target = match[1] ?? "";
          if (target.startsWith("@varia/")) {
            const dep = target.slice("@varia/".length);
            if (!allowed[name]?.includes(dep)) offending.push(`${relative(root, file)} -> ${target}`);
          } else if (relative(dir, join(file, "..", target)).startsWith("..")) {
            offending.push(`${relative(root, file)} -> ${target} (outside the package)`);
          }
        }
      }
      expect(offending).toEqual([]);
    });
  }
});

// Inside apps/server, the folders of src/ show the architecture (docs/storage.md, ARCHITECTURE.md):
// a folder's files import those of other folders only in one direction, never round a cycle.
describe("apps/server's folders", () => {
  const src = join(root, "apps", "server", "src");
  /** Folder -> the folders its files import from. */
  const edges = new Map<string, Set<string>>();
  for (const file of sourceFiles(src)) {
    const from = relative(src, file).split("/")[0]!;
    if (!statSync(join(src, from)).isDirectory()) continue;
    for (const match of readFileSync(file, "utf8").matchAll(importPattern)) {
      const target = match[1] ?? "";
      if (!target.startsWith(".")) continue;
      const to = relative(src, join(file, "..", target)).split("/")[0]!;
      if (
        to === from ||
        to.startsWith("..") ||
        !statSync(join(src, to), { throwIfNoEntry: false })?.isDirectory()
      )
        continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
    }
  }

  /** Every folder cycle, as "a -> b -> a", each listed once from its smallest folder. */
  function cycles(): string[] {
    const found = new Set<string>();
    const walk = (start: string, at: string, path: string[]) => {
      for (const next of edges.get(at) ?? []) {
        if (next === start) found.add([...path, start].join(" -> "));
        else if (!path.includes(next) && next > start) walk(start, next, [...path, next]);
      }
    };
    for (const folder of [...edges.keys()].sort()) walk(folder, folder, [folder]);
    return [...found];
  }

  it("sees the folders' imports", () => {
    expect(edges.get("imports")?.has("db")).toBe(true);
    expect(edges.get("routes")?.has("imports")).toBe(true);
  });

  it("import one another without cycles (db and lines, imports, analytics and http among them)", () => {
    // auth still imports from http (the request's AuthContext, the session cookie), which imports
    // auth: the one edge left to cut. Every other cycle is refused.
    expect(cycles().filter((c) => !c.startsWith("auth -> http -> "))).toEqual([]);
  });
});
