import { abilities } from "@varia/contracts";
import { notFoundRecord, selectHasAbility, selectMenu } from "@varia/machines";
import { lazy, type ReactNode, Suspense, useEffect } from "react";
import { Navigate, Outlet, Route, Routes, useLocation } from "react-router";
import { NotFoundPage } from "../pages/NotFoundPage";
import { StartupContext } from "../shell/startup-context";
import { DataExportPage } from "./export/DataExportPage";
import { viewPaths } from "./filters/view-filter";
import { ForecastPage } from "./forecast/ForecastPage";
import { Level1Page } from "./level-1/Level1Page";
import { Level2Page } from "./level-2/Level2Page";
import { Level3Page } from "./level-3/Level3Page";
import { Level4Page } from "./level-4/Level4Page";
import { NoPermissionPage } from "./NoPermissionPage";
import { ReportPage } from "./reports/ReportPage";
import { ReportTypesPage } from "./reports/ReportTypesPage";
import { WorkspaceLayout } from "./WorkspaceLayout";
import { useRecordUsage } from "./workspace-actors";

/** The sign-up wizard's Data and Configure steps, signed in (docs/behaviour.md#sign-up-wizard). */
const SignUpPage = lazy(() => import("../sign-up/SignUpPage"));

const ImportPage = lazy(() => import("../pages/ImportPage").then((m) => ({ default: m.ImportPage })));

type SettingsScreens = typeof import("./settings/settings-screens");
/** A settings screen, from the settings chunk (settings/settings-screens.ts). */
const settingsScreen = (name: keyof SettingsScreens) =>
  lazy(() => import("./settings/settings-screens").then((m) => ({ default: m[name] })));
const BackupsPage = settingsScreen("BackupsPage");
const ExclusionListPage = settingsScreen("ExclusionListPage");
const ExclusionListsPage = settingsScreen("ExclusionListsPage");
const OrganisationPage = settingsScreen("OrganisationPage");
const RoleListPage = settingsScreen("RoleListPage");
const RolePage = settingsScreen("RolePage");
const SettingsMenuPage = settingsScreen("SettingsMenuPage");
const TokensPage = settingsScreen("TokensPage");
const UserListPage = settingsScreen("UserListPage");
const UserPage = settingsScreen("UserPage");

const selectCanViewDashboard = selectHasAbility(abilities.varianceDashboardView);
const selectCanConnect = selectHasAbility(abilities.integrationManage);
const selectCanImport = selectHasAbility(abilities.importRun);

function PageFallback() {
  return <div className="spinner spinner--page" role="status" aria-label="Loading" />;
}

/**
 * `/`: the sign-up's step while the organisation has one (as start-up redirects: this route must not
 * send the browser elsewhere after it), else level 1 for those who may see it, else the first screen
 * they may open.
 */
function Home() {
  const canView = StartupContext.useSelector(selectCanViewDashboard);
  const menu = StartupContext.useSelector(selectMenu);
  const signUpStep = StartupContext.useSelector((s) =>
    s.context.demoMode ? null : (s.context.profile?.organisationSignUpStep ?? null),
  );
  if (signUpStep) return <Navigate to={`/sign-up/${signUpStep.toLowerCase()}`} replace />;
  if (canView) return <Navigate to={viewPaths.level1} replace />;
  return <Navigate to={menu.find((m) => m.key !== "dashboard")?.path ?? viewPaths.level1} replace />;
}

function Dashboard({ children }: { children: ReactNode }) {
  const canView = StartupContext.useSelector(selectCanViewDashboard);
  return canView ? children : <NoPermissionPage />;
}

const gates = {
  forecast: selectHasAbility(abilities.varianceForecastView),
  reports: selectHasAbility(abilities.varianceReportsView),
  export: selectHasAbility(abilities.varianceExportData),
  tokens: selectHasAbility(abilities.settingsTokensManage),
  users: selectHasAbility(abilities.settingsUsersManage),
  roles: selectHasAbility(abilities.settingsRolesManage),
  lists: selectHasAbility(abilities.settingsListsManage),
  organisation: selectHasAbility(abilities.settingsOrganisationManage),
  backups: selectHasAbility(abilities.settingsBackupsManage),
  // The overview's two panels: the accounting package (Connections/Manage) and CSV imports (Import/Run).
  integration: (s: Parameters<typeof selectCanConnect>[0]) => selectCanConnect(s) || selectCanImport(s),
};

/** A screen behind its ability (the one its menu entry names); the no-permission page otherwise. */
function Gate({ screen, children }: { screen: keyof typeof gates; children: ReactNode }) {
  const allowed = StartupContext.useSelector(gates[screen]);
  return allowed ? children : <NoPermissionPage />;
}

/** An unknown path of a signed-in user: the not-found page, and its record (PUT analytics/general). */
function SignedInNotFound() {
  const record = useRecordUsage();
  const location = useLocation();
  useEffect(() => record(notFoundRecord(location.pathname)), [record, location.pathname]);
  return <NotFoundPage />;
}

/** The signed-in routes of the route table, in the workspace frame. */
export function WorkspaceRoutes() {
  // Sign-up and the integration overview exist only when not in demo mode (apps/web/README.md, "Routes").
  const demoMode = StartupContext.useSelector((s) => s.context.demoMode);
  return (
    <Routes>
      <Route path="/" element={<Home />} />
      <Route path="/sso/*" element={<Navigate to="/" replace />} />
      <Route path="/forgotPassword/*" element={<Navigate to="/" replace />} />
      {/* Addresses a sign-in can end on: the login view's own mode path, and the one people type (docs/behaviour.md, "Routes"). */}
      <Route path="/forgot-password/*" element={<Navigate to="/" replace />} />
      <Route path="/login/*" element={<Navigate to="/" replace />} />
      <Route
        element={
          <WorkspaceLayout>
            <Suspense fallback={<PageFallback />}>
              <Outlet />
            </Suspense>
          </WorkspaceLayout>
        }
      >
        <Route
          path={viewPaths.level1}
          element={
            <Dashboard>
              <Level1Page />
            </Dashboard>
          }
        />
        <Route
          path={viewPaths.level2}
          element={
            <Dashboard>
              <Level2Page />
            </Dashboard>
          }
        />
        <Route
          path={viewPaths.level3}
          element={
            <Dashboard>
              <Level3Page />
            </Dashboard>
          }
        />
        <Route
          path={viewPaths.level4}
          element={
            <Dashboard>
              <Level4Page />
            </Dashboard>
          }
        />
        <Route
          path="/variance/forecast"
          element={
            <Gate screen="forecast">
              <ForecastPage />
            </Gate>
          }
        />
        <Route
          path="/variance/reports/types"
          element={
            <Gate screen="reports">
              <ReportTypesPage />
            </Gate>
          }
        />
        <Route
          path="/variance/reports/types/:reportChosen"
          element={
            <Gate screen="reports">
              <ReportPage />
            </Gate>
          }
        />
        <Route
          path="/variance/settings/export"
          element={
            <Gate screen="export">
              <DataExportPage />
            </Gate>
          }
        />
        <Route
          path="/variance/settings/token"
          element={
            <Gate screen="tokens">
              <TokensPage />
            </Gate>
          }
        />
        <Route path="/variance/settings/menu" element={<SettingsMenuPage />} />
        <Route
          path="/variance/settings/user"
          element={
            <Gate screen="users">
              <UserListPage />
            </Gate>
          }
        />
        <Route
          path="/variance/settings/list"
          element={
            <Gate screen="lists">
              <ExclusionListsPage />
            </Gate>
          }
        />
        <Route
          path="/variance/settings/user/:userID"
          element={
            <Gate screen="users">
              <UserPage />
            </Gate>
          }
        />
        <Route
          path="/variance/settings/list/:exclusionHeaderID"
          element={
            <Gate screen="lists">
              <ExclusionListPage />
            </Gate>
          }
        />
        <Route
          path="/variance/settings/role"
          element={
            <Gate screen="roles">
              <RoleListPage />
            </Gate>
          }
        />
        <Route
          path="/variance/settings/org"
          element={
            <Gate screen="organisation">
              <OrganisationPage />
            </Gate>
          }
        />
        <Route
          path="/variance/settings/role/:roleID"
          element={
            <Gate screen="roles">
              <RolePage />
            </Gate>
          }
        />
        <Route
          path="/variance/settings/backup"
          element={
            <Gate screen="backups">
              <BackupsPage />
            </Gate>
          }
        />
        {demoMode ? null : (
          <Route
            path="/integration/overview"
            element={
              <Gate screen="integration">
                <ImportPage />
              </Gate>
            }
          />
        )}
      </Route>
      {demoMode ? null : (
        <Route
          path="/sign-up/:step?"
          element={
            <Suspense fallback={null}>
              <SignUpPage />
            </Suspense>
          }
        />
      )}
      <Route path="*" element={<SignedInNotFound />} />
    </Routes>
  );
}
