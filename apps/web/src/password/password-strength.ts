import { passwordLength } from "@varia/contracts";

export type PasswordStrength = "empty" | "tooShort" | "weak" | "fair" | "strong" | "veryStrong";

export const strengthLabels: Record<PasswordStrength, string> = {
  empty: "",
  tooShort: "Too short",
  weak: "Weak",
  fair: "Fair",
  strong: "Strong",
  veryStrong: "Very strong",
};

/** How full the meter is, out of 4. */
export const strengthScore: Record<PasswordStrength, number> = {
  empty: 0,
  tooShort: 0,
  weak: 1,
  fair: 2,
  strong: 3,
  veryStrong: 4,
};

/**
 * A rough guide to how hard a password is to guess, shown while it is typed: the bits of a random
 * string of the same length drawn from the kinds of character it uses, counting only characters
 * that differ from the one before (so `aaaa…` and `abcabc…` score low). The server has the last word
 * (length, common passwords, the e-mail address: docs/settings.md); this only encourages length.
 */
export function passwordStrength(password: string): PasswordStrength {
  const characters = [...password];
  if (characters.length === 0) return "empty";
  if (characters.length < passwordLength.min) return "tooShort";
  let pool = 0;
  if (/[a-z]/.test(password)) pool += 26;
  if (/[A-Z]/.test(password)) pool += 26;
  if (/\d/.test(password)) pool += 10;
  if (/[ -/:-@[-`{-~]/.test(password)) pool += 33;
  if (/[^\x20-\x7e]/.test(password)) pool += 100;
  const distinct = new Set(characters).size;
  const varied = characters.filter((c, i) => i === 0 || c !== characters[i - 1]).length;
  const effective = Math.min(varied, distinct * 3);
  const bits = effective * Math.log2(Math.max(pool, 2));
  if (bits < 50) return "weak";
  if (bits < 70) return "fair";
  if (bits < 90) return "strong";
  return "veryStrong";
}
