// The repository explains itself (ARCHITECTURE.md, "Where the rules are written"): a comment points
// at the repository's own docs, as `docs/methodology.md#spreading` (more headings of the same
// document follow as `, #activity`) or `docs/settings.md, "Exclusion lists"`. This test fails when
// a cited document or heading does not exist, and when a comment cites the design notes or the
// product specification by section number, documents that are not in the repository.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");

/** Where citations are checked: every folder with code or docs. */
const checkedRoots = ["packages", "apps/web", "apps/server", "apps/cli", "e2e", "tooling", "docs"];
const checkedFiles = ["README.md", "ARCHITECTURE.md"];

function files(path: string): string[] {
  const full = join(root, path);
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full).flatMap((entry) =>
    ["node_modules", "dist", ".tsbuild"].includes(entry) ? [] : files(join(path, entry)),
  );
}

const sources = [...checkedRoots, ...checkedFiles]
  .flatMap(files)
  .filter((f) => /\.(ts|tsx|mts|mjs|md)$/.test(f));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function headingsOf(doc: string): { anchors: Set<string>; titles: Set<string> } {
  const titles = [...readFileSync(join(root, doc), "utf8").matchAll(/^#{1,6} +(.+?) *$/gm)].map((m) => m[1]!);
  return { anchors: new Set(titles.map(headingAnchor)), titles: new Set(titles) };
}

const anchored = /(docs\/[\w-]+\.md)((?:#[\w-]+)(?:, #[\w-]+)*)?/g;
const quoted = /(docs\/[\w-]+\.md), "([^"]+)"/g;

describe("doc links", () => {
  it("reads GitHub's anchors", () => {
    expect(headingAnchor("Signs, contributions and lists")).toBe("signs-contributions-and-lists");
    expect(headingAnchor("Shell and start-up")).toBe("shell-and-start-up");
  });

  it("every cited document and heading exists", () => {
    const broken: string[] = [];
    for (const file of sources) {
      const text = readFileSync(join(root, file), "utf8");
      const check = (doc: string, found: (h: ReturnType<typeof headingsOf>) => boolean, what: string) => {
        if (!existsSync(join(root, doc))) broken.push(`${file}: ${doc} does not exist`);
        else if (!found(headingsOf(doc))) broken.push(`${file}: ${doc} has no heading ${what}`);
      };
      for (const [, doc, anchors] of text.matchAll(anchored)) {
        if (!anchors) check(doc!, () => true, "");
        for (const anchor of anchors?.split(", ") ?? []) {
          check(doc!, (h) => h.anchors.has(anchor.slice(1)), anchor);
        }
      }
      for (const [, doc, title] of text.matchAll(quoted))
        check(doc!, (h) => h.titles.has(title!), `"${title}"`);
    }
    expect(broken).toEqual([]);
  });

  it("no comment cites the design notes or the specification by section", () => {
    const citation = /\bDESIGN(?:\.md)?\b|\b[Ss]pec(?:ification)?(?: section| §)? ?\d/;
    const offending = sources
      .filter((f) => f !== relative(root, import.meta.filename))
      .flatMap((file) =>
        readFileSync(join(root, file), "utf8")
          .split("\n")
          .flatMap((line, i) => (citation.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(offending).toEqual([]);
  });
});
