import type { FieldErrorMap } from "../form-problem";

/** The checks made before anything is sent; the server checks again. */
export function roleFormErrors(form: { name: string }): FieldErrorMap {
  return form.name.trim() ? {} : { name: ["Enter the role's name."] };
}
