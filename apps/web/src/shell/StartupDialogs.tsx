import { abilities } from "@varia/contracts";
import {
  selectHasAbility,
  selectHasNoData,
  selectTermsFormOpen,
  selectTermsMustBeAccepted,
  selectTourOpen,
} from "@varia/machines";
import { useState } from "react";
import { useNavigate } from "react-router";
import { AppDialog } from "../ui/Dialog";
import "../ui/ui.css";
import { FormMessage } from "./FormMessage";
import { StartupContext } from "./startup-context";

export const termsRequiredMessage = "You must accept our Terms of Service and Privacy Policy to continue";

/** The terms-of-service form: acceptance when never agreed, else the updated-terms notice. */
function TermsForm() {
  const actor = StartupContext.useActorRef();
  const mustAccept = StartupContext.useSelector(selectTermsMustBeAccepted);
  const sending = StartupContext.useSelector((s) => s.matches({ session: "acknowledging" }));
  const [ticked, setTicked] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <AppDialog
      title={mustAccept ? "Terms of Service" : "Our terms have been updated"}
      dismissable={false}
      size="small"
    >
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          if (mustAccept && !ticked) {
            setError(termsRequiredMessage);
            return;
          }
          actor.send({ type: "terms.acknowledge" });
        }}
      >
        {mustAccept ? (
          <>
            <p>Please read and accept our Terms of Service and Privacy Policy to use Varia.</p>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={ticked}
                onChange={(e) => {
                  setTicked(e.target.checked);
                  setError(null);
                }}
              />
              <span>I accept the Terms of Service and Privacy Policy</span>
            </label>
            <FormMessage error={error} />
            <button type="submit" className="button button--primary" disabled={sending}>
              Continue
            </button>
          </>
        ) : (
          <>
            <p>We have updated our Terms of Service and Privacy Policy.</p>
            <button type="submit" className="button button--primary" disabled={sending}>
              Ok
            </button>
          </>
        )}
      </form>
    </AppDialog>
  );
}

const selectCanImport = selectHasAbility(abilities.importRun);

/**
 * The tour: what Varia does; in an organisation with no data yet, where its data comes from, and, to
 * a user who may import, the way to the Integrations page.
 */
function TourModal() {
  const actor = StartupContext.useActorRef();
  const noData = StartupContext.useSelector(selectHasNoData);
  const canImport = StartupContext.useSelector(selectCanImport);
  const navigate = useNavigate();
  const close = () => actor.send({ type: "tour.close" });
  const offerImport = noData && canImport;
  return (
    <AppDialog title="Welcome to Varia" onClose={close} size="small">
      <p>
        Varia explains how your recurring revenue moved between two periods: new and lost clients, services
        added and removed, price, volume, usage and transfers.
      </p>
      {offerImport ? (
        <p>
          Your organisation has no data yet. Start on the Integrations page: upload your invoice lines as a
          CSV file, or connect QuickBooks Online or Xero.
        </p>
      ) : noData ? (
        <p>Your organisation has no data yet: the figures appear once an administrator imports them.</p>
      ) : null}
      <div className="dialog__actions">
        <button
          type="button"
          className={`button ${offerImport ? "button--secondary" : "button--primary"}`}
          onClick={close}
        >
          Get started
        </button>
        {offerImport ? (
          <button
            type="button"
            className="button button--primary"
            onClick={() => {
              close();
              navigate("/integration/overview");
            }}
          >
            Import data
          </button>
        ) : null}
      </div>
    </AppDialog>
  );
}

/** The dialogs start-up opens after sign-in (terms, then the tour), loaded only when one is open. */
export default function StartupDialogs() {
  const termsOpen = StartupContext.useSelector(selectTermsFormOpen);
  const tourOpen = StartupContext.useSelector(selectTourOpen);
  return (
    <>
      {termsOpen ? <TermsForm /> : null}
      {tourOpen ? <TourModal /> : null}
    </>
  );
}
