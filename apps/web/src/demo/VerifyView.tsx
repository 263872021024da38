import { demoVerify } from "@varia/contracts";
import { type FormEvent, useState } from "react";
import { useSearchParams } from "react-router";
import { api } from "../api";
import { usePageTitle } from "../page-title";
import { DigitCodeInput } from "../shell/DigitCodeInput";
import { FormMessage } from "../shell/FormMessage";
import { LoginFrame } from "../shell/LoginFrame";

/** Demo login code verification (/verify): the e-mail and the 6-digit code mailed to it. */
export function VerifyView() {
  usePageTitle("Verify");
  const [params] = useSearchParams();
  const [email, setEmail] = useState(params.get("email") ?? "");
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api.call(demoVerify, { body: { email, code: code.replace(/\D/g, "") } });
      window.location.assign("/");
    } catch (e) {
      const status = (e as { status?: number }).status;
      setError(
        status === 401
          ? "Incorrect code, please try again"
          : "An error occurred while logging in, please try again",
      );
      setBusy(false);
    }
  };

  return (
    <LoginFrame headingId="verify-heading">
      <form className="form" onSubmit={submit}>
        <h1 id="verify-heading">Enter your login code</h1>
        <label className="field">
          <span className="field__label">Company Email</span>
          <input type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <DigitCodeInput groups={[3, 3]} value={code} onChange={setCode} label="Login code" disabled={busy} />
        {/* The server answers once the visitor's demo data is loaded (a second or two). */}
        <FormMessage error={error} success={busy ? "Preparing your demo data…" : null} />
        <button
          type="submit"
          className="button button--primary"
          disabled={busy || code.replace(/\D/g, "").length !== 6}
        >
          Login
        </button>
      </form>
    </LoginFrame>
  );
}
