import { dictionary } from "@zxcvbn-ts/language-common";

/** DESIGN.md 5: 12 to 256 characters, no composition rules, not a common password. */
export const passwordLength = { min: 12, max: 256 } as const;

let common: Set<string> | undefined;

/** The shipped list of about 50,000 common (leaked) passwords, lower-cased. */
function commonPasswords(): Set<string> {
  common ??= new Set(
    ((dictionary as Record<string, string[]>)["passwords-common"] ?? []).map((p) => p.toLowerCase()),
  );
  return common;
}

/** Why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: string, email?: string): string | null {
  if ([...password].length < passwordLength.min)
    return `The password must have at least ${passwordLength.min} characters.`;
  if ([...password].length > passwordLength.max)
    return `The password must have at most ${passwordLength.max} characters.`;
  const lower = password.toLowerCase();
  if (commonPasswords().has(lower) || /^(.)\1*$/.test(password))
    return "This password is too common: it appears in lists of leaked passwords. Please choose another.";
  if (email && lower === email.toLowerCase()) return "The password must not be your e-mail address.";
  return null;
}
