import { describe, expect, it } from "vitest";
import { csvRecordCount } from "../commands/export/export-raw";
import { junitReport, xmlText } from "../commands/smoke/junit-report";
import { parseMonth } from "../filters/filter-options";
import { isLocalhostName, loopbackLookup } from "../http/loopback-lookup";
import { formatByteCount, moneyFormatter } from "./format";
import { formatTable } from "./table";
import { colourFor } from "./terminal";

describe("what the CLI prints", () => {
  it("aligns tables, colours taking no width, with no trailing spaces", () => {
    const green = "\u001b[32m12\u001b[39m";
    expect(
      formatTable(
        [
          ["a", "long", ""],
          ["bbb", green, "x"],
        ],
        ["left", "right"],
      ),
    ).toBe(`a    long\nbbb    ${green}  x`);
  });

  it("colours only a terminal, never with NO_COLOR or --no-color", () => {
    const tty = { write: () => true, isTTY: true };
    expect(colourFor(tty, {}, true).red("x")).toBe("\u001b[31mx\u001b[39m");
    expect(colourFor(tty, { NO_COLOR: "1" }, true).red("x")).toBe("x");
    expect(colourFor(tty, {}, false).red("x")).toBe("x");
    expect(colourFor({ write: () => true }, {}, true).red("x")).toBe("x");
  });

  it("prints money in the organisation's currency to the cent, and byte counts exactly", () => {
    expect(moneyFormatter("nzd")(-1234.5)).toBe("-$1,234.50");
    expect(moneyFormatter("EUR")(80)).toBe("€80.00");
    expect(moneyFormatter("XYZ")(1)).toMatch(/^XYZ\s1\.00$/);
    expect(formatByteCount(322_145)).toBe("322,145 bytes, 314.6 KiB");
    expect(formatByteCount(1)).toBe("1 byte");
  });

  it("reads a month in the app's forms, and refuses anything else", () => {
    expect(["2025-6", "06/2025", "Jun-2025", "jun 2025"].map(parseMonth)).toEqual(Array(4).fill("2025-06"));
    for (const bad of ["June", "2025-13", "13/2025", "2025"])
      expect(() => parseMonth(bad)).toThrow("expected a month");
  });

  it("counts a CSV's records, not its line breaks inside quotes", () => {
    const csv = 'a,b\n1,"two\nlines"\r\n3,"x ""y"""\n\n';
    expect(csvRecordCount(new TextEncoder().encode(csv))).toBe(2);
    expect(csvRecordCount(new TextEncoder().encode("a,b\n1,2"))).toBe(1);
  });

  it("escapes JUnit XML, and drops what XML cannot hold", () => {
    expect(xmlText(`<a & "b" 'c'>\u0001`)).toBe("&lt;a &amp; &quot;b&quot; &apos;c&apos;&gt;");
    const xml = junitReport(
      [
        {
          tenant: "a&b",
          host: "http://a.localhost:1",
          token: "varia_secret",
          organisation: null,
          startedAt: "2026-01-01T00:00:00.000Z",
          checks: [
            {
              name: "Account/AuthorisedPing",
              label: "AuthorisedPing",
              outcome: "refused",
              ms: 12,
              status: 401,
              message: "Unauthorized <x>",
            },
          ],
        },
      ],
      2000,
    );
    expect(xml).toContain('<testsuite name="a&amp;b" tests="1" failures="1"');
    expect(xml).toContain('<failure message="Unauthorized &lt;x&gt;" type="refused">');
    expect(xml).not.toContain("varia_secret");
  });

  it("resolves localhost and every *.localhost name to the loopback addresses itself", async () => {
    expect(
      ["localhost", "acme.localhost", "A.LOCALHOST.", "localhost.example.com"].map(isLocalhostName),
    ).toEqual([true, true, true, false]);
    const all = await new Promise((resolve) =>
      loopbackLookup("acme.localhost", { all: true }, (_e, a) => resolve(a)),
    );
    expect(all).toEqual([
      { address: "127.0.0.1", family: 4 },
      { address: "::1", family: 6 },
    ]);
    const six = await new Promise((resolve) =>
      loopbackLookup("x.localhost", { family: 6 }, (_e, a) => resolve(a)),
    );
    expect(six).toBe("::1");
  });
});
