import { selectOverlay } from "@varia/machines";
import { StartupContext } from "./startup-context";

/**
 * The page-wide overlay that covers the app until start-up finishes (docs/behaviour.md#shell-and-start-up).
 */
export function LoadingOverlay() {
  const overlay = StartupContext.useSelector(selectOverlay);
  if (overlay === "hidden") return null;
  return (
    <div
      className={`loading-overlay${overlay === "fading" ? " loading-overlay--fading" : ""}`}
      role="status"
      aria-live="polite"
      aria-label="Loading Varia"
      data-testid="loading-overlay"
    >
      <div className="loading-overlay__brand">
        <Logo />
        <span>Varia</span>
      </div>
      <div className="loading-overlay__bar" />
    </div>
  );
}

export function Logo({ size = 36 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="7" fill="#4f46e5" />
      <path
        d="M8 22l5-9 4 6 3-4 4 7"
        stroke="#fff"
        strokeWidth="2.6"
        fill="none"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
