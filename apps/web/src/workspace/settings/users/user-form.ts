import type { FieldErrorMap } from "../form-problem";

/** The checks made before anything is sent; the server checks again (and more). */
export function userFormErrors(form: { name: string; email: string }): FieldErrorMap {
  const errors: FieldErrorMap = {};
  if (!form.name.trim()) errors.name = ["Enter the user's name."];
  if (!form.email.trim()) errors.email = ["Enter the user's e-mail address."];
  else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email.trim()))
    errors.email = ["Enter an e-mail address like name@example.com."];
  return errors;
}
