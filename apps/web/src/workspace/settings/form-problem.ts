/**
 * What a failed save tells the person: the server's message and its field errors under the fields
 * they concern (the server names each field: `email`, `roleInfo.name`, `roleIDs`; see
 * apps/server/src/errors.ts). The client's generic texts (docs/api.md#answers-and-errors) stand in when the answer carried
 * no message of its own.
 */
export interface FormProblem {
  message: string;
  fields: Record<string, string[]>;
}

export type FieldErrorMap = Record<string, string[]>;

/** The field errors of a form that the person has to fix before anything is sent. */
export function hasFieldErrors(fields: FieldErrorMap): boolean {
  return Object.values(fields).some((messages) => messages.length > 0);
}

/**
 * The problem of a failed call. `aliases` maps a server field to the form's (`roleInfo.name` →
 * `name`); `labels` names the form's fields in the summary, so the message says which to fix.
 */
export function formProblem(
  error: unknown,
  labels: Record<string, string>,
  aliases: Record<string, string> = {},
): FormProblem {
  const e = error as {
    message?: string;
    status?: number;
    result?: { message?: unknown; errors?: { field: string; message: string }[] };
  };
  const fields: FieldErrorMap = {};
  for (const item of e.result?.errors ?? []) {
    const field = aliases[item.field] ?? item.field.split(".")[0] ?? item.field;
    fields[field] = [...(fields[field] ?? []), item.message];
  }
  const serverMessage = typeof e.result?.message === "string" ? e.result.message : undefined;
  const named = Object.keys(fields)
    .map((f) => labels[f])
    .filter(Boolean);
  // A field the person can fix ('Invalid body: email', 'A user with this e-mail exists' on email) is
  // explained under the field; the summary names it. A refusal (403: an ability not held) keeps the
  // server's words, which say what the person may not do.
  const message =
    (e.status === 400 || e.status === 409) && named.length
      ? `Please check ${named.join(", ")}.`
      : (serverMessage ?? e.message ?? "That did not work, please try again.");
  return { message, fields };
}
