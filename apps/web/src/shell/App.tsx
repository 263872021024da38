import { selectAuthenticated, selectTermsFormOpen, selectTourOpen } from "@varia/machines";
import { lazy, type ReactNode, Suspense, useEffect } from "react";
import { Navigate, Route, Routes, useLocation, useNavigate } from "react-router";
import { DemoView } from "../demo/DemoView";
import { VerifyView } from "../demo/VerifyView";
import { LoginView } from "../login/LoginView";
import { navigation } from "../navigation";
import { NotFoundPage } from "../pages/NotFoundPage";
import { SectionPage } from "../pages/SectionPage";
import { WorkspaceLayout } from "../workspace/WorkspaceLayout";
import { LoadingOverlay } from "./LoadingOverlay";
import { Modal } from "./Modal";
import { StartupContext } from "./startup-context";
import { TermsForm } from "./TermsForm";

const TestbedPage = lazy(() => import("../pages/TestbedPage").then((m) => ({ default: m.TestbedPage })));
const testbedEnabled =
  document.querySelector('meta[name="varia-testbed"]')?.getAttribute("content") === "true";

const ImportPage = lazy(() => import("../pages/ImportPage").then((m) => ({ default: m.ImportPage })));

const StockTypeOverviewPage = lazy(() =>
  import("../pages/StockTypeOverviewPage").then((m) => ({ default: m.StockTypeOverviewPage })),
);

/** Screens reachable without signing in (spec 2.1): sign-up, password reset and demo verify. */
const publicPrefixes = ["/sign-up", "/passwordReset", "/passwordSet", "/verify"];

/** The signed-in routes of spec 2.2, each in the workspace frame. */
const workspaceRoutes: { path: string; title: string; element?: ReactNode }[] = [
  {
    path: "/variance/dashboard/stockTypeOverview",
    title: "Stock Type Overview",
    element: <StockTypeOverviewPage />,
  },
  { path: "/variance/dashboard/positiveOrNegative", title: "Positive or Negative" },
  { path: "/variance/dashboard/specific", title: "Specific" },
  { path: "/variance/dashboard/invoice", title: "Invoice Data" },
  { path: "/variance/forecast", title: "Forecast" },
  { path: "/variance/reports/types", title: "Reports" },
  { path: "/variance/reports/types/:reportChosen", title: "Report" },
  { path: "/variance/settings/menu", title: "Settings" },
  { path: "/variance/settings/role", title: "Roles" },
  { path: "/variance/settings/role/:roleID", title: "Role" },
  { path: "/variance/settings/org", title: "Organisation Settings" },
  { path: "/variance/settings/user", title: "Users" },
  { path: "/variance/settings/user/:userID", title: "User" },
  { path: "/variance/settings/list", title: "Exclusion Lists" },
  { path: "/variance/settings/list/:exclusionHeaderID", title: "Exclusion List" },
  { path: "/variance/settings/backup", title: "Backups" },
  { path: "/variance/settings/export", title: "Data Export" },
  { path: "/integration/overview", title: "Integrations", element: <ImportPage /> },
];

function NavigationBridge() {
  navigation.navigate = useNavigate();
  return null;
}

function PublicRoutes() {
  return (
    <Routes>
      <Route path="/sign-up/:step?" element={<SectionPage title="Sign Up" />} />
      <Route path="/passwordReset" element={<SectionPage title="Password Reset" />} />
      <Route path="/passwordReset/:tokenID/:secretToken" element={<SectionPage title="Password Reset" />} />
      <Route path="/passwordSet/:tokenID/:secretToken" element={<SectionPage title="Set Password" />} />
      <Route path="/verify" element={<VerifyView />} />
    </Routes>
  );
}

function SignedInRoutes() {
  return (
    <Routes>
      <Route path="/" element={<Navigate to="/variance/dashboard/stockTypeOverview" replace />} />
      <Route path="/sso/*" element={<Navigate to="/" replace />} />
      <Route path="/forgotPassword/*" element={<Navigate to="/" replace />} />
      {workspaceRoutes.map((route) => (
        <Route
          key={route.path}
          path={route.path}
          element={
            <WorkspaceLayout>
              <Suspense
                fallback={<div className="spinner spinner--page" role="status" aria-label="Loading" />}
              >
                {route.element ?? <SectionPage title={route.title} />}
              </Suspense>
            </WorkspaceLayout>
          }
        />
      ))}
      <Route path="/sign-up/:step?" element={<SectionPage title="Sign Up" />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}

function TourModal() {
  const actor = StartupContext.useActorRef();
  return (
    <Modal title="Welcome to Varia" onClose={() => actor.send({ type: "tour.close" })}>
      <p>
        Varia explains how your recurring revenue moved between two periods: new and lost clients, services
        added and removed, price, volume, usage and transfers.
      </p>
      <button
        type="button"
        className="button button--primary"
        onClick={() => actor.send({ type: "tour.close" })}
      >
        Get started
      </button>
    </Modal>
  );
}

/** The application shell (spec 2.1). */
export function App() {
  const authenticated = StartupContext.useSelector(selectAuthenticated);
  const termsOpen = StartupContext.useSelector(selectTermsFormOpen);
  const tourOpen = StartupContext.useSelector(selectTourOpen);
  const demoMode = StartupContext.useSelector((s) => s.context.demoMode);
  const location = useLocation();
  const isPublic = publicPrefixes.some((prefix) => location.pathname.startsWith(prefix));

  useEffect(() => {
    if (authenticated === null) document.title = "Varia";
  }, [authenticated]);

  if (testbedEnabled && location.pathname === "/testbed") {
    return (
      <Suspense fallback={null}>
        <TestbedPage />
      </Suspense>
    );
  }

  return (
    <>
      <NavigationBridge />
      {/* While the initial authentication step runs, nothing else is shown (spec 2.1). */}
      {authenticated === null ? null : authenticated ? (
        <SignedInRoutes />
      ) : isPublic ? (
        <PublicRoutes />
      ) : demoMode ? (
        <DemoView />
      ) : (
        <LoginView />
      )}
      {termsOpen && <TermsForm />}
      {tourOpen && <TourModal />}
      <LoadingOverlay />
    </>
  );
}
