import { describe, expect, it } from "vitest";
import { noCostsNote, noCostsNotes } from "./use-costs-imported";

describe("the note that margin equals revenue", () => {
  it("says no costs were imported when no line carries one", () => {
    expect(noCostsNote({ costsImported: false, recurringCostsImported: false })).toBe(
      "No costs imported: margin equals revenue",
    );
  });

  it("says only ad hoc sales carry costs when no recurring line does", () => {
    expect(noCostsNote({ costsImported: true, recurringCostsImported: false })).toBe(noCostsNotes.adhocOnly);
  });

  it("says nothing when recurring lines carry costs", () => {
    expect(noCostsNote({ costsImported: true, recurringCostsImported: true })).toBeNull();
  });
});
