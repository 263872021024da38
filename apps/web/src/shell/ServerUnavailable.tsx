import { StartupContext } from "./startup-context";

/**
 * Shown on the login and demo views while the server seems unavailable
 * (docs/behaviour.md#shell-and-start-up).
 */
export function ServerUnavailable() {
  const actor = StartupContext.useActorRef();
  return (
    <div className="notice notice--warning" role="alert">
      <p className="notice__title">The application is currently unavailable.</p>
      <p>Routine maintenance in progress.</p>
      <button
        type="button"
        className="button button--secondary"
        onClick={() => actor.send({ type: "auth.retry" })}
      >
        Try again
      </button>
    </div>
  );
}
