import { logout } from "@varia/contracts";
import { selectAuthenticated } from "@varia/machines";
import { useEffect } from "react";
import { useParams } from "react-router";
import { api } from "../api";
import { Logo } from "../shell/LoadingOverlay";
import { StartupContext } from "../shell/startup-context";
import { ConfigureStep } from "./ConfigureStep";
import { DataStep } from "./DataStep";
import { WelcomeStep } from "./WelcomeStep";
import "./sign-up.css";

const steps = [
  { key: "Welcome", label: "Connect" },
  { key: "Data", label: "Import" },
  { key: "Configure", label: "Configure" },
] as const;
type Step = (typeof steps)[number]["key"];

/**
 * `/sign-up/{step?}`: the sign-up wizard (docs/behaviour.md#sign-up-wizard). Welcome is open to anyone;
 * Data and Configure need the session the provider's sign-up started, so a signed-out visitor of
 * those sees Welcome. Each step has a Logout button (signed out, it goes to `/`).
 */
export default function SignUpPage() {
  const signedIn = StartupContext.useSelector(selectAuthenticated) === true;
  const { step: routeStep } = useParams();
  const step: Step = !signedIn
    ? "Welcome"
    : routeStep === "data"
      ? "Data"
      : routeStep === "configure"
        ? "Configure"
        : "Welcome";
  useEffect(() => {
    document.title = `Sign Up · ${steps.find((s) => s.key === step)?.label} · Varia`;
  }, [step]);

  const signOut = async () => {
    if (signedIn) {
      try {
        await api.call(logout);
      } catch {
        // Signed out or not, the visitor leaves the wizard for the login view.
      }
      api.clearCache();
    }
    window.location.assign("/");
  };

  const current = steps.findIndex((s) => s.key === step);
  return (
    <main className="sign-up">
      <header className="sign-up__header">
        <div className="sign-up__brand">
          <Logo size={28} />
          <span>Varia</span>
        </div>
        <ol className="sign-up__steps" aria-label="Sign-up steps">
          {steps.map((s, index) => (
            <li
              key={s.key}
              className={`sign-up__step${index === current ? " is-current" : index < current ? " is-done" : ""}`}
              aria-current={index === current ? "step" : undefined}
            >
              <span className="sign-up__step-number" aria-hidden="true">
                {index + 1}
              </span>
              {s.label}
            </li>
          ))}
        </ol>
        <button type="button" className="button button--secondary" onClick={signOut}>
          Logout
        </button>
      </header>
      <section className="sign-up__card" aria-labelledby="sign-up-heading">
        {step === "Welcome" ? <WelcomeStep /> : step === "Data" ? <DataStep /> : <ConfigureStep />}
      </section>
    </main>
  );
}
