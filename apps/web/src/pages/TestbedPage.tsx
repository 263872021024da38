import { useState } from "react";
import { Character } from "../login/Character";
import { usePageTitle } from "../page-title";
import { FormMessage } from "../shell/FormMessage";
import { AppDialog } from "../ui/Dialog";
import "../ui/ui.css";
import { EmptyState } from "./PageFrame";

/** The developer-only component gallery (docs/behaviour.md#routes), served when VARIA_TESTBED is set. */
export function TestbedPage() {
  usePageTitle("Testbed");
  const [modalOpen, setModalOpen] = useState(false);
  return (
    <main className="testbed">
      <h1>Component testbed</h1>
      <section>
        <h2>Buttons</h2>
        <div className="testbed__row">
          <button type="button" className="button button--primary">
            Primary
          </button>
          <button type="button" className="button button--secondary">
            Secondary
          </button>
          <button type="button" className="button button--danger">
            Danger
          </button>
          <button type="button" className="button button--success">
            Success
          </button>
          <button type="button" className="button button--primary" disabled aria-busy>
            <span className="spinner" aria-hidden="true" />
            Loading
          </button>
          <button type="button" className="button button--secondary" onClick={() => setModalOpen(true)}>
            Open modal
          </button>
        </div>
      </section>
      <section>
        <h2>Form fields and messages</h2>
        <div className="form testbed__form">
          <label className="field">
            <span className="field__label">Text</span>
            <input placeholder="Search for..." />
          </label>
          <FormMessage error="An error occurred while displaying this card." />
          <FormMessage success="Job completed successfully" />
        </div>
      </section>
      <section>
        <h2>Character</h2>
        <div className="testbed__row">
          {(["idle", "eyesCovered", "headShake", "standing"] as const).map((pose) => (
            <figure key={pose}>
              <Character pose={pose} />
              <figcaption>{pose}</figcaption>
            </figure>
          ))}
        </div>
      </section>
      <section>
        <h2>Empty state</h2>
        <EmptyState title="No information available to show." />
      </section>
      {modalOpen && (
        <AppDialog title="A modal" onClose={() => setModalOpen(false)}>
          <p>Escape closes it; focus stays inside.</p>
          <button type="button" className="button button--primary" onClick={() => setModalOpen(false)}>
            Close
          </button>
        </AppDialog>
      )}
    </main>
  );
}
