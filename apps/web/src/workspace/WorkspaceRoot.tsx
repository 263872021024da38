import { abilities, forcedLocaleOf } from "@varia/contracts";
import { selectActualPeriods, selectHasAbility, selectProfile } from "@varia/machines";
import { useState } from "react";
import { RouterProvider } from "react-aria-components";
import { useHref, useLocation, useNavigate } from "react-router";
import { StartupContext } from "../shell/startup-context";
import { FormatProvider } from "../ui/format";
import "../ui/ui.css";
import "./workspace.css";
import { prefetchLevel1 } from "./level-1/prefetch-level-1";
import { PopupHost } from "./PopupHost";
import { WorkspaceRoutes } from "./WorkspaceRoutes";
import { AnalyticsContext, PopupContext, WorkspaceContext, workspaceInput } from "./workspace-actors";

/**
 * The signed-in app, loaded after sign-in in a chunk of its own: the organisation's formatter, the
 * frame's machines (panels, pop-up queue, analytics records) and the signed-in routes.
 */
const selectCanViewDashboard = selectHasAbility(abilities.varianceDashboardView);

export default function WorkspaceRoot() {
  const profile = StartupContext.useSelector(selectProfile);
  const navigate = useNavigate();
  const location = useLocation();
  const periods = StartupContext.useSelector(selectActualPeriods);
  const canViewDashboard = StartupContext.useSelector(selectCanViewDashboard);
  // Once, as the workspace first renders: the landing page's calls go out before its frame renders.
  useState(() => {
    if (canViewDashboard) prefetchLevel1(location.pathname, location.search, periods);
  });
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
