import { type ReactNode, type RefObject, useEffect, useRef } from "react";
import { FormMessage } from "../../shell/FormMessage";
import { AppDialog } from "../../ui/Dialog";
import type { FormErrors } from "./form-errors";

/**
 * The confirmation of a step that cannot be taken back (delete, restore): what it does, its error,
 * Cancel and the step's own button; neither Escape nor a click outside closes it while it runs.
 */
export function ConfirmDialog({
  title,
  confirmLabel,
  busy,
  error,
  onCancel,
  onConfirm,
  children,
}: {
  title: string;
  confirmLabel: string;
  busy: boolean;
  error: string | null;
  onCancel: () => void;
  onConfirm: () => void;
  children: ReactNode;
}) {
  return (
    <AppDialog title={title} role="alertdialog" size="medium" dismissable={!busy} onClose={onCancel}>
      {children}
      <FormMessage error={error} />
      <div className="dialog__actions">
        <button type="button" className="button button--secondary" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="button button--danger" disabled={busy} onClick={onConfirm}>
          {busy ? <span className="spinner" aria-hidden="true" /> : null}
          {confirmLabel}
        </button>
      </div>
    </AppDialog>
  );
}

/** The foot of a settings form: what the last save did (or why it failed) and Save. */
export function SaveBar({
  saving,
  errors,
  saved,
  icon,
}: {
  saving: boolean;
  errors: FormErrors;
  saved: string | null;
  icon?: ReactNode;
}) {
  return (
    <div className="settings-form__actions">
      <div className="settings-form__status">
        <FormMessage error={errors.message} success={saved} />
      </div>
      <button type="submit" className="button button--primary" disabled={saving}>
        {saving ? <span className="spinner" aria-hidden="true" /> : icon}
        {saving ? "Saving…" : "Save"}
      </button>
    </div>
  );
}

/**
 * After a save fails on named fields, the focus goes to the first of them (marked aria-invalid).
 * Editing a field takes its errors away (`withoutField`): that leaves the focus where the person
 * is typing.
 */
export function useFocusFirstError(form: RefObject<HTMLFormElement | null>, errors: FormErrors) {
  const before = useRef(errors);
  useEffect(() => {
    const previous = Object.keys(before.current.fields);
    before.current = errors;
    const fields = Object.keys(errors.fields);
    if (fields.length === 0) return;
    const onlyFewer = fields.length < previous.length && fields.every((f) => previous.includes(f));
    if (onlyFewer) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors, form]);
}
