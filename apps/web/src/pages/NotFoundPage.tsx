import { Link } from "react-router";
import { usePageTitle } from "../page-title";

/**
 * Any unknown path (docs/behaviour.md#routes): the message and a link home. Signed in, the workspace also sends its
 * front-end 404 record (`SignedInNotFound`); signed out there is no session to send it with.
 */
export function NotFoundPage() {
  usePageTitle("Page not found");
  return (
    <main className="not-found">
      <h1>The requested page was not found</h1>
      <Link to="/" className="button button--primary">
        Go home
      </Link>
    </main>
  );
}
