import { isTokenValid, passwordLength, resetPassword } from "@varia/contracts";
import { type PasswordLinkKind, passwordLinkMachine } from "@varia/machines";
import { useActorRef, useSelector } from "@xstate/react";
import { useEffect, useId, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { fromPromise } from "xstate";
import { api } from "../api";
import type { LoginHandover } from "../login/LoginView";
import { usePageTitle } from "../page-title";
import { FieldErrors } from "../shell/FieldErrors";
import { FormMessage } from "../shell/FormMessage";
import { LoginFrame } from "../shell/LoginFrame";
import { passwordStrength, strengthLabels, strengthScore } from "./password-strength";

/** What the login view says after a password is saved through a link. */
export const passwordSavedNotice = "Your new password is saved. Sign in with it.";

const texts: Record<
  PasswordLinkKind,
  { title: string; heading: string; submit: string; invalid: string; validity: string }
> = {
  reset: {
    title: "Password Reset",
    heading: "Choose a new password",
    submit: "Reset Password",
    invalid: "This password reset link has expired or has already been used.",
    validity: "A reset link works once, within an hour of being sent. Request a new one below.",
  },
  set: {
    title: "Set Password",
    heading: "Set your password",
    submit: "Set Password",
    invalid: "This link to set your password has expired or has already been used.",
    validity:
      "A link to set your password works once, within 72 hours of being sent. Request a new one below, or ask your administrator to send you another.",
  },
};

/** The meter beside the new password: a rough guide, announced as it changes. */
function StrengthMeter({ password }: { password: string }) {
  const strength = passwordStrength(password);
  const score = strengthScore[strength];
  return (
    <div className={`strength strength--${strength}`}>
      <div className="strength__bar" aria-hidden="true">
        {[1, 2, 3, 4].map((step) => (
          <span key={step} className={step <= score ? "strength__step is-on" : "strength__step"} />
        ))}
      </div>
      <span id="password-strength" className="strength__label" aria-live="polite">
        {strength === "empty" ? "" : `Strength: ${strengthLabels[strength]}`}
      </span>
    </div>
  );
}

/**
 * `/passwordReset/{tokenID}/{secretToken}` and `/passwordSet/{tokenID}/{secretToken}`: the link is
 * checked first; a used or expired one is explained with a way to a new one; otherwise the new
 * password (twice, with its strength and the server's rules), then the login view with a notice.
 */
export function PasswordLinkPage({ kind }: { kind: PasswordLinkKind }) {
  const text = texts[kind];
  usePageTitle(text.title);
  const navigate = useNavigate();
  const { tokenID = "", secretToken = "" } = useParams();
  const actor = useActorRef(
    passwordLinkMachine.provide({
      actors: {
        checkLink: fromPromise(async ({ input }) => api.call(isTokenValid, { query: input })),
        setPassword: fromPromise(async ({ input }) => api.call(resetPassword, { body: input })),
      },
    }),
    { input: { tokenID, secretToken, kind } },
  );
  const state = useSelector(actor, (s) => s.value);
  const error = useSelector(actor, (s) => s.context.error);
  const passwordErrors = useSelector(actor, (s) => s.context.passwordErrors);
  const confirmationErrors = useSelector(actor, (s) => s.context.confirmationErrors);
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const ids = useId();

  const email = useSelector(actor, (s) => s.context.email);

  // The login view, its e-mail filled in: handed over in the page's history state, never in the
  // address, which servers, proxies and the front-end's 404 records write down (LoginView reads it once).
  useEffect(() => {
    if (state === "done")
      navigate("/", { replace: true, state: { notice: passwordSavedNotice, email } satisfies LoginHandover });
  }, [state, navigate, email]);

  if (state === "checking" || state === "done") {
    return (
      <LoginFrame headingId="password-heading">
        <h1 id="password-heading">{text.heading}</h1>
        <div className="spinner spinner--page spinner--dark" role="status" aria-label="Checking your link" />
      </LoginFrame>
    );
  }
  if (state === "checkFailed") {
    return (
      <LoginFrame headingId="password-heading">
        <h1 id="password-heading">{text.heading}</h1>
        <FormMessage error={error} />
        <button
          type="button"
          className="button button--primary"
          onClick={() => actor.send({ type: "link.retry" })}
        >
          Try again
        </button>
      </LoginFrame>
    );
  }
  if (state === "invalid") {
    return (
      <LoginFrame headingId="password-heading">
        <h1 id="password-heading">This link can no longer be used</h1>
        <p className="form__error" role="alert">
          {text.invalid}
        </p>
        <p className="form__note">{text.validity}</p>
        <Link to="/passwordReset" className="button button--primary">
          Request a new link
        </Link>
        <Link to="/" className="button button--link">
          Back to Login
        </Link>
      </LoginFrame>
    );
  }

  const saving = state === "saving";
  return (
    <LoginFrame headingId="password-heading">
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          actor.send({ type: "password.submit", password, confirmation });
        }}
      >
        <h1 id="password-heading">{text.heading}</h1>
        {/* The account the password is for, so that a password manager saves it under the right
            name (docs/behaviour.md, "Login"): hidden, and never sent. */}
        {email ? (
          <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        ) : null}
        <ul id="password-rules" className="password-rules">
          <li>
            At least {passwordLength.min} and at most {passwordLength.max} characters; spaces and any
            characters count.
          </li>
          <li>Not a common password (one of the lists of leaked passwords), and not your e-mail address.</li>
          <li>No rules about digits or symbols: a few words together make a good password.</li>
        </ul>
        <div className="field">
          <label className="field__label" htmlFor={`${ids}-password`}>
            New password
          </label>
          <input
            id={`${ids}-password`}
            type="password"
            autoComplete="new-password"
            value={password}
            disabled={saving}
            aria-describedby={`password-rules password-strength ${ids}-password-errors`}
            aria-invalid={passwordErrors.length > 0 || undefined}
            onChange={(e) => setPassword(e.target.value)}
          />
          <div id={`${ids}-password-errors`}>
            <FieldErrors errors={passwordErrors} />
          </div>
        </div>
        <StrengthMeter password={password} />
        <div className="field">
          <label className="field__label" htmlFor={`${ids}-confirmation`}>
            Confirm new password
          </label>
          <input
            id={`${ids}-confirmation`}
            type="password"
            autoComplete="new-password"
            value={confirmation}
            disabled={saving}
            aria-describedby={`${ids}-confirmation-errors`}
            aria-invalid={confirmationErrors.length > 0 || undefined}
            onChange={(e) => setConfirmation(e.target.value)}
          />
          <div id={`${ids}-confirmation-errors`}>
            <FieldErrors errors={confirmationErrors} />
          </div>
        </div>
        <FormMessage error={error} />
        <button type="submit" className="button button--primary" disabled={saving} aria-busy={saving}>
          {saving ? <span className="spinner" aria-hidden="true" /> : null}
          {text.submit}
        </button>
        <Link to="/" className="button button--link">
          Back to Login
        </Link>
      </form>
    </LoginFrame>
  );
}
