import { type ReactNode, useState } from "react";
import { AppDialog } from "../../ui/Dialog";
import { formProblem } from "./form-problem";

/**
 * Asks before something that cannot be undone (deleting a user or a role): what will happen, a
 * Cancel and the action, which locks while it runs; a failure is shown in the dialog.
 */
export function ConfirmDialog({
  title,
  confirmLabel,
  onConfirm,
  onClose,
  children,
}: {
  title: string;
  confirmLabel: string;
  /** Resolves when done; a rejection's message (the server's, when it gave one) is shown. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
  children: ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <AppDialog
      title={title}
      onClose={busy ? undefined : onClose}
      dismissable={!busy}
      size="small"
      role="alertdialog"
    >
      <div className="confirm-dialog">
        {children}
        {error ? (
          <p className="form__error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="confirm-dialog__actions">
          <button type="button" className="button button--secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button
            type="button"
            className="button button--danger"
            disabled={busy}
            aria-busy={busy}
            onClick={async () => {
              setBusy(true);
              setError(null);
              try {
                await onConfirm();
              } catch (e) {
                setError(formProblem(e, {}).message);
                setBusy(false);
              }
            }}
          >
            {busy ? <span className="spinner" aria-hidden="true" /> : null}
            {confirmLabel}
          </button>
        </div>
      </div>
    </AppDialog>
  );
}
