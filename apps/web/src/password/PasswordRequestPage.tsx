import { resetPasswordRequest } from "@varia/contracts";
import { passwordRequestMachine } from "@varia/machines";
import { useActorRef, useSelector } from "@xstate/react";
import { Link } from "react-router";
import { fromPromise } from "xstate";
import { api } from "../api";
import { usePageTitle } from "../page-title";
import { LoginFrame } from "../shell/LoginFrame";
import { ResetRequestForm } from "./ResetRequestForm";

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
  return (
    <LoginFrame headingId="password-heading">
      <ResetRequestForm
        headingId="password-heading"
        locked={locked}
        busy={busy}
        error={error}
        confirmation={confirmation}
        onSubmit={(email) => actor.send({ type: "reset.submit", email })}
        back={
          <Link to="/" className="button button--link">
            Back to Login
          </Link>
        }
      >
        <p className="form__note">
          Enter the e-mail address you sign in with; we will send you a link to choose a new password.
        </p>
      </ResetRequestForm>
    </LoginFrame>
  );
}
