import { useEffect } from "react";
import { Link, useLocation } from "react-router";
import { usePageTitle } from "../page-title";

/** Any unknown path (docs/behaviour.md#routes): the message, a link home, and a front-end 404 record. */
export function NotFoundPage() {
  usePageTitle("Page not found");
  const location = useLocation();
  useEffect(() => {
    console.info(JSON.stringify({ recordType: "FrontEnd404", recordData: location.pathname }));
  }, [location.pathname]);
  return (
    <main className="not-found">
      <h1>The requested page was not found</h1>
      <Link to="/" className="button button--primary">
        Go home
      </Link>
    </main>
  );
}
