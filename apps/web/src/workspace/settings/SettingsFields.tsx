import { type ReactNode, useId } from "react";
import { FieldErrors } from "../../shell/FieldErrors";

/**
 * A labelled text input of a settings form; its errors sit below it and describe it (a screen
 * reader reads them with the field), and it is marked invalid while it has any.
 */
export function TextField({
  label,
  value,
  onChange,
  errors = [],
  type = "text",
  autoComplete,
  required = false,
  disabled = false,
  hint,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  errors?: readonly string[];
  type?: "text" | "email";
  autoComplete?: string;
  required?: boolean;
  disabled?: boolean;
  hint?: string;
}) {
  const id = useId();
  const described = [hint ? `${id}-hint` : "", errors.length ? `${id}-errors` : ""].filter(Boolean).join(" ");
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      <input
        id={id}
        type={type}
        value={value}
        autoComplete={autoComplete}
        required={required}
        disabled={disabled}
        aria-invalid={errors.length ? true : undefined}
        aria-describedby={described || undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {hint ? (
        <span id={`${id}-hint`} className="form__note">
          {hint}
        </span>
      ) : null}
      {errors.length ? (
        <div id={`${id}-errors`}>
          <FieldErrors errors={errors} />
        </div>
      ) : null}
    </div>
  );
}

/** A checkbox with its label and, below, what it means. */
export function CheckboxField({
  label,
  checked,
  onChange,
  disabled = false,
  description,
}: {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  description?: string;
}) {
  const id = useId();
  return (
    <div className="settings-check">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        aria-describedby={description ? `${id}-description` : undefined}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
      {description ? (
        <span id={`${id}-description`} className="form__note settings-check__description">
          {description}
        </span>
      ) : null}
    </div>
  );
}

/** A group of checkboxes under a legend, with the group's errors (a fieldset: read as one). */
export function CheckboxGroup({
  legend,
  errors = [],
  children,
  className = "",
}: {
  legend: ReactNode;
  errors?: readonly string[];
  children: ReactNode;
  className?: string;
}) {
  const id = useId();
  return (
    <fieldset
      className={`settings-group ${className}`.trim()}
      aria-describedby={errors.length ? `${id}-errors` : undefined}
    >
      <legend>{legend}</legend>
      {children}
      {errors.length ? (
        <div id={`${id}-errors`}>
          <FieldErrors errors={errors} />
        </div>
      ) : null}
    </fieldset>
  );
}
