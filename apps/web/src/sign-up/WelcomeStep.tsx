import { type IntegrationType, signUpMachine } from "@varia/machines";
import { useActorRef, useSelector } from "@xstate/react";
import { useId } from "react";
import { Radio, RadioGroup } from "react-aria-components";
import { useSearchParams } from "react-router";
import { fromPromise } from "xstate";

const packages: { value: IntegrationType; label: string; detail: string }[] = [
  { value: "Quickbooks", label: "QuickBooks Online", detail: "Sign in with Intuit" },
  { value: "Xero", label: "Xero", detail: "Sign in with Xero" },
];

/**
 * The wizard's first step: the accounting package, the agreement to the terms and the privacy
 * policy, then Authorise, a browser navigation to the provider's sign-up sign-in
 * (Auth/SingleSignUp/{integrationType}); the provider's answer creates the organisation and comes
 * back signed in at the Data step.
 */
export function WelcomeStep() {
  const actor = useActorRef(
    signUpMachine.provide({
      actors: {
        authorise: fromPromise(async ({ input }) => {
          window.location.assign(`/api/Auth/SingleSignUp/${input.integrationType}`);
          // The page is leaving; the wizard waits here until it has.
          await new Promise(() => {});
        }),
      },
    }),
    { input: { step: "Welcome" } },
  );
  const integrationType = useSelector(actor, (s) => s.context.integrationType);
  const agreed = useSelector(actor, (s) => s.context.agreed);
  const errors = useSelector(actor, (s) => s.context.errors);
  const authorising = useSelector(actor, (s) => s.matches("authorising"));
  // A refused sign-up comes back here with the reason (Auth/SingleSignUpCallback).
  const [search] = useSearchParams();
  const refused = search.get("error");
  const agreeId = useId();
  const chosen = packages.find((p) => p.value === integrationType);

  return (
    <form
      className="form sign-up__form"
      onSubmit={(event) => {
        event.preventDefault();
        actor.send({ type: "welcome.authorise" });
      }}
    >
      <h1 id="sign-up-heading">Sign up to Varia</h1>
      <p className="sign-up__lead">
        Connect your accounting package. Varia reads your sales invoices, never changes them, and explains
        every change in your recurring revenue: clients won and lost, services added and removed, price,
        volume and usage.
      </p>
      {refused ? (
        <p className="form__error" role="alert">
          {refused}
        </p>
      ) : null}
      <RadioGroup
        className="sign-up__packages"
        aria-label="Accounting package"
        value={integrationType}
        onChange={(value) =>
          actor.send({ type: "welcome.chooseIntegration", integrationType: value as IntegrationType })
        }
      >
        <span className="field__label">Your accounting package</span>
        <div className="sign-up__package-list">
          {packages.map((p) => (
            <Radio key={p.value} value={p.value} className="sign-up__package">
              <span
                className={`sign-up__package-logo sign-up__package-logo--${p.value.toLowerCase()}`}
                aria-hidden="true"
              >
                {p.value === "Xero" ? "x" : "qb"}
              </span>
              <span className="sign-up__package-text">
                <strong>{p.label}</strong>
                <span>{p.detail}</span>
              </span>
            </Radio>
          ))}
        </div>
      </RadioGroup>
      <div className="checkbox">
        <input
          id={agreeId}
          type="checkbox"
          checked={agreed}
          onChange={(event) => actor.send({ type: "welcome.agree", agreed: event.target.checked })}
        />
        <label htmlFor={agreeId}>I agree to the terms and conditions and the privacy policy</label>
      </div>
      {errors.length > 0 ? (
        <ul className="form__error sign-up__errors" role="alert">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}
      <button type="submit" className="button button--primary" disabled={authorising}>
        {authorising ? <span className="spinner" aria-hidden="true" /> : null}
        {chosen ? `Authorise with ${chosen.label}` : "Authorise"}
      </button>
      <p className="sign-up__aside">
        Already signed up? <a href="/">Log in</a>
      </p>
    </form>
  );
}
