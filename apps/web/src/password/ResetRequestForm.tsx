import { type ReactNode, useState } from "react";
import { FormMessage } from "../shell/FormMessage";

/**
 * The request for a reset link, as the login view's 'Forgot Password?' mode and `/passwordReset`
 * both show it: the e-mail, the answer (error or neutral confirmation), Reset Password (locked while
 * the request runs and after the confirmation), and the way back to the login.
 */
export function ResetRequestForm({
  headingId,
  initialEmail = "",
  locked,
  busy,
  error,
  confirmation,
  onSubmit,
  back,
  children,
}: {
  headingId: string;
  /** What was typed in the login's e-mail field before. */
  initialEmail?: string;
  locked: boolean;
  busy: boolean;
  error: string | null;
  confirmation: string | null;
  onSubmit: (email: string) => void;
  /** The 'Back to Login' button or link. */
  back: ReactNode;
  /** Text under the heading. */
  children?: ReactNode;
}) {
  const [email, setEmail] = useState(initialEmail);
  return (
    <form
      className="form"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(email.trim());
      }}
    >
      <h1 id={headingId}>Reset your password</h1>
      {children}
      <label className="field">
        <span className="field__label">Email</span>
        <input
          type="email"
          autoComplete="email"
          required
          value={email}
          disabled={locked}
          onChange={(e) => setEmail(e.target.value)}
        />
      </label>
      <FormMessage error={error} success={confirmation} />
      <button type="submit" className="button button--primary" disabled={locked} aria-busy={busy}>
        {busy ? <span className="spinner" aria-hidden="true" /> : null}
        Reset Password
      </button>
      {back}
    </form>
  );
}
