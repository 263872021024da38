import { describe, expect, it } from "vitest";
import { badgeLabel } from "./Badge";

describe("badges", () => {
  it("say SERVICE for sku, AD HOC for adhoc, and the others upper-cased", () => {
    expect(["sku", "adhoc", "new", "lost", "added", "removed", "existing"].map(badgeLabel)).toEqual([
      "SERVICE",
      "AD HOC",
      "NEW",
      "LOST",
      "ADDED",
      "REMOVED",
      "EXISTING",
    ]);
  });
});
