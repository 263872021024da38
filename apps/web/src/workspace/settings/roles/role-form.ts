import type { FieldErrorMap } from "../form-problem";

/** The checks made before anything is sent; the server checks again. */
export function roleFormErrors(form: { name: string }): FieldErrorMap {
  return form.name.trim() ? {} : { name: ["Enter the role's name."] };
}

/** What deleting a role held by `userCount` users does to them, said in the confirmation. */
export function roleDeleteConsequence(userCount: number): string {
  if (userCount === 0) return "No user holds it, so nobody loses an ability.";
  const who = userCount === 1 ? "Its 1 user loses" : `Its ${userCount} users lose`;
  return `${who} the abilities it grants (unless another of their roles grants them), from their next page.`;
}
