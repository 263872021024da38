import { forcedLocaleOf } from "@varia/contracts";
import { selectProfile } from "@varia/machines";
import { RouterProvider } from "react-aria-components";
import { useHref, useNavigate } from "react-router";
import { StartupContext } from "../shell/startup-context";
import { preloadCharts } from "../ui/charts/Chart";
import { FormatProvider } from "../ui/format";
import { preloadGrid } from "../ui/grid/Grid";
import "../ui/ui.css";
import "./workspace.css";
import { PopupHost } from "./PopupHost";
import { WorkspaceRoutes } from "./WorkspaceRoutes";
import { AnalyticsContext, PopupContext, WorkspaceContext, workspaceInput } from "./workspace-actors";

// The heavy chunks download while the first page renders; they are evaluated once the main thread
// is free, by which time the page's cards have sent their calls (CardGrid asks before rendering).
preloadCharts();
preloadGrid();

/**
 * The signed-in app, loaded after sign-in in a chunk of its own: the organisation's formatter, the
 * frame's machines (panels, pop-up queue, analytics records) and the signed-in routes.
 */
export default function WorkspaceRoot() {
  const profile = StartupContext.useSelector(selectProfile);
  const navigate = useNavigate();
  const currency = profile?.subscriptionCurrencyCode ?? "USD";
  return (
    // Money is written in the organisation's currency, in the locale the organisation's settings
    // give that currency (OrganisationSettings/Currencies), whatever the browser's language.
    <FormatProvider currency={currency} forcedLocale={forcedLocaleOf(currency) ?? null}>
      <RouterProvider navigate={navigate} useHref={useHref}>
        <WorkspaceContext.Provider options={{ input: workspaceInput() }}>
          <PopupContext.Provider>
            <AnalyticsContext.Provider options={{ input: { enabled: true } }}>
              <WorkspaceRoutes />
              <PopupHost />
            </AnalyticsContext.Provider>
          </PopupContext.Provider>
        </WorkspaceContext.Provider>
      </RouterProvider>
    </FormatProvider>
  );
}
