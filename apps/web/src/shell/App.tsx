import { selectAuthenticated, selectTermsFormOpen, selectTourOpen } from "@varia/machines";
import { lazy, Suspense, useEffect } from "react";
import { Route, Routes, useLocation, useNavigate } from "react-router";
import { DemoView } from "../demo/DemoView";
import { VerifyView } from "../demo/VerifyView";
import { LoginView } from "../login/LoginView";
import { navigation } from "../navigation";
import { NotFoundPage } from "../pages/NotFoundPage";
import { PasswordLinkPage } from "../password/PasswordLinkPage";
import { PasswordRequestPage } from "../password/PasswordRequestPage";
import { LoadingOverlay } from "./LoadingOverlay";
import { StartupContext } from "./startup-context";
import { loadedWorkspace, loadWorkspace } from "./workspace-chunk";

const TestbedPage = lazy(() => import("../pages/TestbedPage").then((m) => ({ default: m.TestbedPage })));
const testbedEnabled =
  document.querySelector('meta[name="varia-testbed"]')?.getAttribute("content") === "true";

/** The sign-up wizard (docs/behaviour.md#sign-up-wizard): a chunk of its own, signed in or out. */
const SignUpPage = lazy(() => import("../sign-up/SignUpPage"));

/** The signed-in app (frame, dashboards, charts, grids, accessible widgets): a chunk of its own. */
const WorkspaceRoot = lazy(loadWorkspace);
/** The terms form and the tour, loaded only when start-up opens one. */
const StartupDialogs = lazy(() => import("./StartupDialogs"));

/**
 * Screens reachable without signing in (docs/behaviour.md#shell-and-start-up): sign-up, password reset and
 * demo verify.
 */
const publicPrefixes = ["/sign-up", "/passwordReset", "/passwordSet", "/verify"];
const passwordPrefixes = ["/passwordReset", "/passwordSet"];

function NavigationBridge() {
  navigation.navigate = useNavigate();
  return null;
}

/** Sign-up and the password pages exist only when not in demo mode (apps/web/README.md, "Routes"). */
function PublicRoutes({ demoMode }: { demoMode: boolean }) {
  return (
    <Routes>
      {demoMode ? null : (
        <>
          <Route
            path="/sign-up/:step?"
            element={
              <Suspense fallback={null}>
                <SignUpPage />
              </Suspense>
            }
          />
          <Route path="/passwordReset" element={<PasswordRequestPage />} />
          <Route path="/passwordReset/:tokenID/:secretToken" element={<PasswordLinkPage kind="reset" />} />
          <Route path="/passwordSet/:tokenID/:secretToken" element={<PasswordLinkPage kind="set" />} />
        </>
      )}
      <Route path="/verify" element={<VerifyView />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}

function SignedInApp() {
  const Workspace = loadedWorkspace() ?? WorkspaceRoot;
  return <Workspace />;
}

/** The application shell (docs/behaviour.md#shell-and-start-up). */
export function App() {
  const authenticated = StartupContext.useSelector(selectAuthenticated);
  const termsOpen = StartupContext.useSelector(selectTermsFormOpen);
  const tourOpen = StartupContext.useSelector(selectTourOpen);
  const demoMode = StartupContext.useSelector((s) => s.context.demoMode);
  const location = useLocation();
  const isPublic = publicPrefixes.some((prefix) => location.pathname.startsWith(prefix));
  // A link from an e-mail works in a browser that is signed in too (as someone else, perhaps).
  const isPasswordLink = !demoMode && passwordPrefixes.some((prefix) => location.pathname.startsWith(prefix));

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
      {/* While the initial authentication step runs, nothing else is shown (docs/behaviour.md#shell-and-start-up). */}
      {authenticated === null ? null : isPasswordLink ? (
        <PublicRoutes demoMode={demoMode} />
      ) : authenticated ? (
        <Suspense fallback={<div className="spinner spinner--page" role="status" aria-label="Loading" />}>
          <SignedInApp />
        </Suspense>
      ) : isPublic ? (
        <PublicRoutes demoMode={demoMode} />
      ) : demoMode ? (
        <DemoView />
      ) : (
        <LoginView />
      )}
      {termsOpen || tourOpen ? (
        <Suspense fallback={null}>
          <StartupDialogs />
        </Suspense>
      ) : null}
      <LoadingOverlay />
    </>
  );
}
