import { selectTermsMustBeAccepted } from "@varia/machines";
import { useState } from "react";
import { FormMessage } from "./FormMessage";
import { Modal } from "./Modal";
import { StartupContext } from "./startup-context";

export const termsRequiredMessage = "You must accept our Terms of Service and Privacy Policy to continue";

/** The terms-of-service form (spec 4.1, 5): acceptance when never agreed, else the updated-terms notice. */
export function TermsForm() {
  const actor = StartupContext.useActorRef();
  const mustAccept = StartupContext.useSelector(selectTermsMustBeAccepted);
  const sending = StartupContext.useSelector((s) => s.matches({ session: "acknowledging" }));
  const [ticked, setTicked] = useState(false);
  const [error, setError] = useState<string | null>(null);

  return (
    <Modal title={mustAccept ? "Terms of Service" : "Our terms have been updated"} closable={false}>
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
    </Modal>
  );
}
