import { resetPasswordRequest } from "@varia/contracts";
import { passwordRequestMachine } from "@varia/machines";
import { useActorRef, useSelector } from "@xstate/react";
import { useState } from "react";
import { Link } from "react-router";
import { fromPromise } from "xstate";
import { api } from "../api";
import { usePageTitle } from "../page-title";
import { FormMessage } from "../shell/FormMessage";
import { LoginFrame } from "../shell/LoginFrame";

/**
 * `/passwordReset`: the request for a reset link. The form locks while the request runs, then shows
 * the neutral confirmation (whether or not the address has an account) or the error.
 */
export function PasswordRequestPage() {
  usePageTitle("Password Reset");
  const actor = useActorRef(
    passwordRequestMachine.provide({
      actors: {
        requestReset: fromPromise(async ({ input }) => {
          await api.call(resetPasswordRequest, { body: { email: input.email } });
        }),
      },
    }),
  );
  const locked = useSelector(actor, (s) => !s.matches("idle"));
  const busy = useSelector(actor, (s) => s.matches("requesting"));
  const error = useSelector(actor, (s) => s.context.error);
  const confirmation = useSelector(actor, (s) => s.context.confirmation);
  const [email, setEmail] = useState("");
  return (
    <LoginFrame headingId="password-heading">
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          actor.send({ type: "reset.submit", email: email.trim() });
        }}
      >
        <h1 id="password-heading">Reset your password</h1>
        <p className="form__note">
          Enter the e-mail address you sign in with; we will send you a link to choose a new password.
        </p>
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
        <Link to="/" className="button button--link">
          Back to Login
        </Link>
      </form>
    </LoginFrame>
  );
}
