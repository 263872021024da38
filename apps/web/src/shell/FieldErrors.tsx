/** A field's errors (docs/behaviour.md#widgets-and-panels): one as plain text, several as a list. */
export function FieldErrors({ errors }: { errors: readonly string[] }) {
  if (errors.length === 0) return null;
  if (errors.length === 1) {
    return (
      <span className="field__error" role="alert">
        {errors[0]}
      </span>
    );
  }
  return (
    <ul className="field__error" role="alert">
      {errors.map((e) => (
        <li key={e}>{e}</li>
      ))}
    </ul>
  );
}
