import { describe, expect, it } from "vitest";
import { roleDeleteConsequence } from "./role-form";

describe("roleDeleteConsequence", () => {
  it("says that nobody loses anything when no user holds the role", () => {
    expect(roleDeleteConsequence(0)).toBe("No user holds it, so nobody loses an ability.");
  });

  it("counts the users who lose the role's abilities", () => {
    expect(roleDeleteConsequence(1)).toBe(
      "Its 1 user loses the abilities it grants (unless another of their roles grants them), from their next page.",
    );
    expect(roleDeleteConsequence(3)).toMatch(/^Its 3 users lose the abilities it grants/);
  });
});
