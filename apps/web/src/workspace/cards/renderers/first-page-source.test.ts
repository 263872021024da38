import { describe, expect, it } from "vitest";
import type { ServerQuery } from "../../../ui/grid/Grid";
import { firstPageSource } from "./first-page-source";

const first = { rows: [{ n: 1 }], rowCount: 30 };

describe("firstPageSource", () => {
  it("answers the grid's first ask with the card's page and asks the server for the rest", async () => {
    const asked: ServerQuery[] = [];
    const source = firstPageSource(first, 25, async (query) => {
      asked.push(query);
      return { rows: [{ n: 2 }], rowCount: 30 };
    });
    expect(await source({ startRow: 0, rowLimit: 25 })).toBe(first);
    await source({ startRow: 25, rowLimit: 25 });
    // The first page once only: asked again (back from page 2), it comes from the server.
    await source({ startRow: 0, rowLimit: 25 });
    expect(asked).toEqual([
      { startRow: 25, rowLimit: 25 },
      { startRow: 0, rowLimit: 25 },
    ]);
  });

  it("remembers the order the grid last asked for, for Download CSV to write the rows in", async () => {
    const source = firstPageSource(first, 25, async () => first);
    expect(source.lastSort()).toEqual({});
    await source({ startRow: 0, rowLimit: 25, sortBy: "clientName", sortDir: "asc" });
    expect(source.lastSort()).toEqual({ sortBy: "clientName", sortDir: "asc" });
    await source({ startRow: 0, rowLimit: 25, sortBy: "valueCents" });
    expect(source.lastSort()).toEqual({ sortBy: "valueCents", sortDir: "desc" });
    await source({ startRow: 0, rowLimit: 25 });
    expect(source.lastSort()).toEqual({});
  });
});
