import { describe, expect, it } from "vitest";
import { contributorNoun, marginPrefix } from "./variance-labels";

describe("contributorNoun", () => {
  it("names one contributor in the singular", () => {
    expect(contributorNoun("Transfer", 1)).toBe("client");
    expect(contributorNoun("Client", 1)).toBe("client");
    expect(contributorNoun("Price", 1)).toBe("service of a client");
  });

  it("names none or several in the plural", () => {
    expect(contributorNoun("Client", 0)).toBe("clients");
    expect(contributorNoun("Transfer", 10)).toBe("clients");
    expect(contributorNoun("Service", 4)).toBe("services of clients");
    expect(contributorNoun(null, 2)).toBe("services of clients");
  });
});

describe("a subtitle's measure", () => {
  it("says Margin in a Margin view and nothing in a Revenue view", () => {
    expect(marginPrefix("Margin")).toBe("Margin, ");
    expect(marginPrefix("Revenue")).toBe("");
  });
});
