import type { ReactNode } from "react";
import { Logo } from "./LoadingOverlay";

/** The frame of the screens before sign-in: the card with the logo, labelled by its heading. */
export function LoginFrame({ headingId, children }: { headingId: string; children: ReactNode }) {
  return (
    <main className="login-frame">
      <section className="login-card" aria-labelledby={headingId}>
        <div className="login-card__brand">
          <Logo />
          <span>Varia</span>
        </div>
        {children}
      </section>
    </main>
  );
}
