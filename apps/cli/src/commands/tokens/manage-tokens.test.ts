import { type ApiToken, abilities } from "@varia/contracts";
import { describe, expect, it } from "vitest";
import { abilitiesText, inForceText } from "./manage-tokens";

const token = (over: Partial<ApiToken>): ApiToken => ({
  tokenID: "t",
  name: "ci",
  tokenPrefix: "varia_abcd",
  userID: "u",
  userName: "Lee",
  abilities: [abilities.varianceDashboardView, abilities.varianceReportsView],
  abilitiesInForce: [abilities.varianceDashboardView, abilities.varianceReportsView],
  userDisabled: false,
  createdAt: "2026-11-25T06:00:00.000Z",
  lastUsedAt: null,
  ...over,
});

describe("varia tokens list's columns", () => {
  it("says whether a token's abilities count now: yes, those its user no longer holds, or refused", () => {
    expect(inForceText(token({}))).toBe("yes");
    expect(inForceText(token({ abilitiesInForce: [abilities.varianceDashboardView] }))).toBe(
      "not Variance/Reports/View",
    );
    expect(inForceText(token({ userDisabled: true, abilitiesInForce: [] }))).toBe("no: user disabled");
  });

  it("writes 'all' for a token with every ability, and names a narrower scope", () => {
    expect(abilitiesText(token({ abilities: Object.values(abilities) }))).toBe("all");
    expect(abilitiesText(token({}))).toBe("Variance/Dashboard/View,Variance/Reports/View");
  });
});
