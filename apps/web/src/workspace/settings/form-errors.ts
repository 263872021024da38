import { ApiError } from "@varia/api-client";

/** A failed save as a form shows it: messages by field (`name`, `clientCodes.3`) and one for the form. */
export interface FormErrors {
  fields: Record<string, string[]>;
  message: string | null;
}

export const noFormErrors: FormErrors = { fields: {}, message: null };

/**
 * The errors of a failed settings call: the server names each bad field (`errors: [{ field,
 * message }]`, docs/settings.md), and its message stands for the form; a call without an answer
 * gets `fallback`.
 */
export function formErrorsOf(error: unknown, fallback: string): FormErrors {
  if (!(error instanceof ApiError)) return { fields: {}, message: fallback };
  const result = error.result as { errors?: { field?: unknown; message?: unknown }[] } | undefined;
  const fields: Record<string, string[]> = {};
  for (const e of result?.errors ?? []) {
    if (typeof e.field !== "string" || typeof e.message !== "string") continue;
    fields[e.field] = [...(fields[e.field] ?? []), e.message];
  }
  const named = Object.keys(fields).length > 0;
  return {
    fields,
    message: named ? "Please correct the fields marked in red." : (error.serverMessage ?? fallback),
  };
}

/** The messages of a field and of every part of it (`itemCategories` → `itemCategories.0.code`). */
export function fieldMessages(errors: FormErrors, field: string): string[] {
  return Object.entries(errors.fields)
    .filter(([name]) => name === field || name.startsWith(`${field}.`))
    .flatMap(([, messages]) => messages);
}

/**
 * The errors once a field is edited: that field's messages (and its parts') go; when no field is
 * left marked, the form's message that pointed at them goes too.
 */
export function withoutField(errors: FormErrors, field: string): FormErrors {
  const fields = Object.fromEntries(
    Object.entries(errors.fields).filter(([name]) => name !== field && !name.startsWith(`${field}.`)),
  );
  const hadFields = Object.keys(errors.fields).length > 0;
  const message = hadFields && Object.keys(fields).length === 0 ? null : errors.message;
  return { fields, message };
}
