import type { VarianceJsonDto } from "@varia/contracts";
import { describe, expect, it } from "vitest";
import { moneyFormatter } from "../../output/format";
import { varianceTable } from "./show-variance";

const plain = { green: (s: string) => s, red: (s: string) => s } as Parameters<typeof varianceTable>[2];
const sides = (positive: number, negative: number) => ({ positive, negative });

/** A Margin view with a client acquired at a loss and one lost at a loss (docs/methodology.md). */
const margin: VarianceJsonDto = {
  dataType: "Margin",
  periodFrom: "2025-06",
  periodTo: "2025-07",
  totalFrom: 30,
  totalTo: 40,
  byType: {
    Client: sides(-30, 30),
    Service: sides(-20, 0),
    Price: sides(0, 0),
    Volume: sides(0, 0),
    Usage: sides(0, 0),
    Transfer: sides(0, 0),
  },
  acquiredClients: [{ clientCode: "C", clientName: "Gamma", value: -30 }],
  lostClients: [{ clientCode: "B", clientName: "Beta", value: 30 }],
};

describe("varianceTable", () => {
  it("heads the two sides for what happened, not for a sign: a client acquired at a loss is new with a negative margin", () => {
    const lines = varianceTable(margin, moneyFormatter("USD"), plain).split("\n");
    expect(lines[0]!.trim().split(/\s{2,}/)).toEqual(["New, added, up", "Lost, removed, down", "Net"]);
    expect(lines[2]!.trim().split(/\s{2,}/)).toEqual(["Client", "-$30.00", "$30.00", "$0.00"]);
    expect(lines.slice(-5)).toEqual([
      "Acquired clients (1)",
      "  C  Gamma  -$30.00",
      "",
      "Lost clients (1)",
      "  B  Beta  $30.00",
    ]);
  });
});
