import { login as loginContract, loginOrganisation, resetPasswordRequest } from "@varia/contracts";
import {
  loginMachine,
  selectCharacter,
  selectLoginBusy,
  selectLoginError,
  selectLoginMode,
  selectResetLocked,
  selectResetMessage,
} from "@varia/machines";
import { useActorRef, useSelector } from "@xstate/react";
import { type FormEvent, lazy, Suspense, useEffect, useRef, useState } from "react";
import { useLocation, useNavigate, useSearchParams } from "react-router";
import { fromPromise } from "xstate";
import { api } from "../api";
import { usePageTitle } from "../page-title";
import { ResetRequestForm } from "../password/ResetRequestForm";
import { DigitCodeInput } from "../shell/DigitCodeInput";
import { FormMessage } from "../shell/FormMessage";
import { LoginFrame } from "../shell/LoginFrame";
import { ServerUnavailable } from "../shell/ServerUnavailable";
import { StartupContext } from "../shell/startup-context";
import { Character } from "./Character";

/** The display name of the organisation this host signs in to (Account/LoginOrganisation), or null. */
function useLoginOrganisation(): string | null {
  const [name, setName] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    api
      .call(loginOrganisation)
      .then((answer) => current && setName(answer.organisationName))
      // Without it the line is left out; the sign-in itself does not depend on it.
      .catch(() => {});
    return () => {
      current = false;
    };
  }, []);
  return name;
}

const TotpQrCode = lazy(() => import("./TotpQrCode").then((m) => ({ default: m.TotpQrCode })));

const ssoProviders = [
  { provider: "Google", label: "Sign In with Google" },
  { provider: "Intuit", label: "Sign In with Intuit Quickbooks" },
  { provider: "Microsoft", label: "Sign In with Microsoft" },
  { provider: "Xero", label: "Sign In with Xero" },
] as const;

type LoginActor = ReturnType<typeof useActorRef<typeof loginMachine>>;

/** The 6-digit code step, split 3+3, with the QR code when enrolling (docs/behaviour.md#login). */
function MultiFactorForm({ actor, error, busy }: { actor: LoginActor; error: string | null; busy: boolean }) {
  const multiFactor = useSelector(actor, (s) => s.context.multiFactor);
  const [code, setCode] = useState("");
  return (
    <form
      className="form"
      onSubmit={(event) => {
        event.preventDefault();
        actor.send({ type: "login.submitCode", code: code.replace(/\D/g, "") });
      }}
    >
      <h1 id="login-heading">Multi-factor authentication</h1>
      {multiFactor?.totpUri && (
        <>
          <p>Scan this code with your authenticator app, then enter the 6-digit code it shows.</p>
          <Suspense fallback={<div className="spinner spinner--page" role="status" aria-label="Loading" />}>
            <TotpQrCode uri={multiFactor.totpUri} secret={multiFactor.totpSecret} />
          </Suspense>
        </>
      )}
      <DigitCodeInput groups={[3, 3]} value={code} onChange={setCode} label="6-digit code" disabled={busy} />
      <FormMessage error={error} />
      <button
        type="submit"
        className="button button--primary"
        disabled={busy || code.replace(/\D/g, "").length !== 6}
      >
        Verify
      </button>
      {multiFactor?.optional && (
        <button
          type="button"
          className="button button--secondary"
          onClick={() => actor.send({ type: "login.skipMultiFactor" })}
        >
          Skip setting up multi-factor
        </button>
      )}
      <button
        type="button"
        className="button button--link"
        onClick={() => actor.send({ type: "mode.default" })}
      >
        Back to Login
      </button>
    </form>
  );
}

/** What the password pages hand the login view in the history state (PasswordLinkPage). */
export interface LoginHandover {
  notice?: string;
  email?: string | null;
}

/**
 * The login screen's default and forgot-password modes (docs/behaviour.md#login), driven by the login
 * machine.
 */
export function LoginView() {
  usePageTitle("Login");
  const [searchParams] = useSearchParams();
  const serverUnavailable = StartupContext.useSelector((s) => s.context.serverUnavailable);
  const actor = useActorRef(
    loginMachine.provide({
      actors: {
        login: fromPromise(async ({ input }) => api.call(loginContract, { body: input })),
        requestReset: fromPromise<void, { email: string }>(async ({ input }) => {
          await api.call(resetPasswordRequest, { body: { email: input.email.trim() } });
        }),
      },
      actions: {
        rewriteAddress: (_, params) => window.history.replaceState(window.history.state, "", params.path),
        // docs/behaviour.md#login: on success the page reloads after the character's animation.
        reload: () => window.location.reload(),
      },
    }),
    { input: { pathname: window.location.pathname, errorParam: searchParams.get("error") } },
  );
  const mode = useSelector(actor, selectLoginMode);
  const error = useSelector(actor, selectLoginError);
  const busy = useSelector(actor, selectLoginBusy);
  const pose = useSelector(actor, selectCharacter);
  const resetMessage = useSelector(actor, selectResetMessage);
  const resetLocked = useSelector(actor, selectResetLocked);
  const resetBusy = useSelector(actor, (s) => s.matches({ forgotPassword: "submitting" }));
  const location = useLocation();
  const navigate = useNavigate();
  // A password just saved through an e-mailed link: the password pages send a notice and the
  // account's e-mail address here (never the password).
  const handover = location.state as LoginHandover | null;
  const notice = handover?.notice ?? null;
  const [email, setEmail] = useState(() => handover?.email ?? "");
  const [password, setPassword] = useState("");
  const [stayLoggedIn, setStayLoggedIn] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const organisation = useLoginOrganisation();
  // The address is taken once: the history entry keeps the notice but not the e-mail address.
  useEffect(() => {
    if (handover?.email)
      navigate(location.pathname + location.search, { replace: true, state: { notice: handover.notice } });
  }, [handover, navigate, location.pathname, location.search]);
  useEffect(() => {
    if (mode !== "default") return;
    // With the e-mail filled in (handed over, or typed before the forgot-password form), what is
    // left to type is the password.
    if (emailRef.current?.value) passwordRef.current?.focus();
    else emailRef.current?.focus();
  }, [mode]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: "login.submit", email, password, stayLoggedIn });
  };

  return (
    <LoginFrame headingId="login-heading">
      <Character pose={pose} />
      {serverUnavailable ? (
        <ServerUnavailable />
      ) : mode === "SingleSignOn" ? (
        <div key="sso" className="form">
          <h1 id="login-heading">Single sign-on</h1>
          {ssoProviders.map((p) => (
            <a
              key={p.provider}
              className="button button--secondary"
              href={`/api/Auth/SingleSignOn/${p.provider}`}
            >
              {p.label}
            </a>
          ))}
          <button
            type="button"
            className="button button--link"
            onClick={() => actor.send({ type: "mode.default" })}
          >
            Back to Login
          </button>
        </div>
      ) : mode === "AuthenticateMultiFactor" ? (
        <MultiFactorForm key="mfa" actor={actor} error={error} busy={busy} />
      ) : mode === "ForgotPassword" ? (
        <ResetRequestForm
          key="forgot"
          headingId="login-heading"
          initialEmail={email}
          locked={resetLocked}
          busy={resetBusy}
          error={error}
          confirmation={resetMessage}
          onSubmit={(typed) => {
            setEmail(typed);
            actor.send({ type: "reset.submit", email: typed });
          }}
          back={
            <button
              type="button"
              className="button button--link"
              onClick={() => actor.send({ type: "mode.default" })}
            >
              Back to Login
            </button>
          }
        />
      ) : (
        <form key="login" className="form" onSubmit={submit} noValidate>
          <h1 id="login-heading">Sign in</h1>
          {organisation && <p className="login-card__organisation">You are logging in to {organisation}</p>}
          <label className="field">
            <span className="field__label">Email</span>
            <input
              type="email"
              name="email"
              ref={emailRef}
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </label>
          <label className="field">
            <span className="field__label">Password</span>
            <input
              type="password"
              name="password"
              ref={passwordRef}
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              onFocus={() => actor.send({ type: "password.focus" })}
              onBlur={() => actor.send({ type: "password.blur" })}
            />
          </label>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={stayLoggedIn}
              onChange={(e) => setStayLoggedIn(e.target.checked)}
            />
            <span>Stay logged in</span>
          </label>
          <FormMessage error={error} success={notice} />
          <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy}>
            {busy ? <span className="spinner" aria-hidden="true" /> : null}
            Login
          </button>
          <div className="form__row">
            <button
              type="button"
              className="button button--link"
              onClick={() => actor.send({ type: "mode.forgotPassword" })}
            >
              Forgot Password?
            </button>
            <button
              type="button"
              className="button button--link"
              onClick={() => actor.send({ type: "mode.singleSignOn" })}
            >
              Single sign-on
            </button>
          </div>
          <p className="login-card__sign-up">
            New to Varia? <a href="/sign-up">Sign up with QuickBooks or Xero</a>
          </p>
        </form>
      )}
    </LoginFrame>
  );
}
