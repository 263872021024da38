import { demoSignup } from "@varia/contracts";
import { demoFormMachine } from "@varia/machines";
import { useActorRef, useSelector } from "@xstate/react";
import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { api } from "../api";
import { usePageTitle } from "../page-title";
import { FieldErrors } from "../shell/FieldErrors";
import { FormMessage } from "../shell/FormMessage";
import { LoginFrame } from "../shell/LoginFrame";
import { ServerUnavailable } from "../shell/ServerUnavailable";
import { StartupContext } from "../shell/startup-context";
import { captchaToken, loadCaptcha } from "./captcha";

/**
 * The demo request view (docs/behaviour.md#demo-request): a splash, then the form; a login code is mailed to
 * the address.
 */
export function DemoView() {
  usePageTitle("Request a demo");
  const navigate = useNavigate();
  const serverUnavailable = StartupContext.useSelector((s) => s.context.serverUnavailable);
  const [stage, setStage] = useState<"splash" | "form">("splash");
  const actor = useActorRef(demoFormMachine, { input: { userAgent: navigator.userAgent } });
  const name = useSelector(actor, (s) => s.context.name);
  const email = useSelector(actor, (s) => s.context.email);
  const errors = useSelector(actor, (s) => s.context.errors);
  const requesting = useSelector(actor, (s) => s.context.isRequesting);
  const [captchaAlert, setCaptchaAlert] = useState<string | null>(null);

  useEffect(() => {
    // The captcha library loads with the form, so that a request does not wait for it.
    if (stage === "form") loadCaptcha().catch(() => {});
  }, [stage]);

  useEffect(() => {
    const request = actor.on("demoRequest", async (event) => {
      actor.send({ type: "form.requesting", value: true });
      setCaptchaAlert(null);
      try {
        // A token when a captcha is configured (the server checks it); none otherwise.
        const captcha = await captchaToken("demoSignup");
        if (!captcha.proceed) {
          setCaptchaAlert(captcha.alert);
          actor.send({ type: "form.failed" });
          return;
        }
        await api.call(demoSignup, {
          body: {
            name: event.name,
            email: event.email,
            phoneDetected: event.phoneDetected,
            ...(captcha.token ? { recaptchaToken: captcha.token } : {}),
          },
        });
        navigate(`/verify?email=${encodeURIComponent(event.email)}`);
      } catch (error) {
        actor.send({ type: "form.failed", message: (error as { serverMessage?: string }).serverMessage });
      }
    });
    const cancel = actor.on("cancel", () => setStage("splash"));
    return () => {
      request.unsubscribe();
      cancel.unsubscribe();
    };
  }, [actor, navigate]);

  return (
    <LoginFrame headingId="demo-heading">
      {serverUnavailable ? (
        <ServerUnavailable />
      ) : stage === "splash" ? (
        <div className="form">
          <h1 id="demo-heading">See Varia with a real business's numbers</h1>
          <button type="button" className="button button--primary" onClick={() => setStage("form")}>
            Sign Up
          </button>
          <a className="button button--secondary" href="/verify">
            Login
          </a>
        </div>
      ) : (
        <form
          className="form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            actor.send({ type: "form.submit" });
          }}
        >
          <h1 id="demo-heading">Request a demo</h1>
          <label className="field">
            <span className="field__label">Name</span>
            <input
              value={name}
              onChange={(e) => actor.send({ type: "form.editName", value: e.target.value })}
            />
            <FieldErrors errors={errors.name} />
          </label>
          <label className="field">
            <span className="field__label">Company Email</span>
            <input
              type="email"
              autoComplete="email"
              value={email}
              onChange={(e) => actor.send({ type: "form.editEmail", value: e.target.value })}
            />
            <FieldErrors errors={errors.email} />
          </label>
          <button
            type="submit"
            className="button button--primary"
            disabled={requesting}
            aria-busy={requesting}
          >
            {requesting && <span className="spinner" aria-hidden="true" />}
            Submit
          </button>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => actor.send({ type: "form.cancel" })}
          >
            Cancel
          </button>
          <p className="form__note">Login code will be sent to your email address</p>
          <p className="form__note">
            This site is protected by reCAPTCHA and the Google{" "}
            <a href="https://policies.google.com/privacy">Privacy Policy</a> and{" "}
            <a href="https://policies.google.com/terms">Terms of Service</a> apply.
          </p>
          {captchaAlert ? <FormMessage error={captchaAlert} /> : null}
          <FormMessage error={errors.form[0] ?? null} />
        </form>
      )}
    </LoginFrame>
  );
}
