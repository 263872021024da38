/** A form's error (announced) or confirmation; nothing when there is no message. */
export function FormMessage({ error, success }: { error?: string | null; success?: string | null }) {
  if (error) {
    return (
      <p className="form__error" role="alert">
        {error}
      </p>
    );
  }
  if (success) {
    return (
      <p className="form__success" role="status">
        {success}
      </p>
    );
  }
  return null;
}
