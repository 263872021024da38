import { describe, expect, it } from "vitest";
import { passwordStrength } from "./password-strength";

describe("passwordStrength", () => {
  it("says a password under 12 characters is too short, whatever it holds", () => {
    expect(passwordStrength("")).toBe("empty");
    expect(passwordStrength("Zq9!Zq9!Zq9")).toBe("tooShort");
    expect(passwordStrength("ééééééééééé")).toBe("tooShort");
  });

  it("scores a repeated character or a short cycle low", () => {
    expect(passwordStrength("aaaaaaaaaaaaaaaaaaaa")).toBe("weak");
    expect(passwordStrength("abababababababababab")).toBe("weak");
  });

  it("grows with length and with the kinds of character used", () => {
    expect(passwordStrength("lowercaseonly")).toBe("fair");
    expect(passwordStrength("Mixed Case 12")).toBe("strong");
    expect(passwordStrength("a long e2e password for the test")).toBe("veryStrong");
  });
});
