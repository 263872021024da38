import { abilities } from "@varia/contracts";
import { notFoundRecord, selectHasAbility, selectMenu } from "@varia/machines";
import { lazy, type ReactNode, Suspense, useEffect } from "react";
import { Navigate, Outlet, Route, Routes, useLocation } from "react-router";
import { NotFoundPage } from "../pages/NotFoundPage";
import { SectionPage } from "../pages/SectionPage";
import { StartupContext } from "../shell/startup-context";
import { DataExportPage } from "./export/DataExportPage";
import { viewPaths } from "./filters/view-filter";
import { ForecastPage } from "./forecast/ForecastPage";
import { Level1Page } from "./level-1/Level1Page";
import { Level2Page } from "./level-2/Level2Page";
import { Level3Page } from "./level-3/Level3Page";
import { Level4Page } from "./level-4/Level4Page";
import { NoPermissionPage } from "./NoPermissionPage";
import { PlaceholderPage } from "./PlaceholderPage";
import { ReportPage } from "./reports/ReportPage";
import { ReportTypesPage } from "./reports/ReportTypesPage";
import { BackupsPage } from "./settings/backups/BackupsPage";
import { ExclusionListPage } from "./settings/lists/ExclusionListPage";
import { ExclusionListsPage } from "./settings/lists/ExclusionListsPage";
import { OrganisationPage } from "./settings/organisation/OrganisationPage";
import { WorkspaceLayout } from "./WorkspaceLayout";
import { useRecordUsage } from "./workspace-actors";

const ImportPage = lazy(() => import("../pages/ImportPage").then((m) => ({ default: m.ImportPage })));

const selectCanViewDashboard = selectHasAbility(abilities.varianceDashboardView);

/** The settings screens not built yet, with what exists for each today. */
const placeholders: { path: string; title: string; text: ReactNode }[] = [
  {
    path: "/variance/settings/menu",
    title: "Settings",
    text: <p>Settings are managed through the API and the administration commands for now.</p>,
  },
  {
    path: "/variance/settings/role",
    title: "Roles",
    text: <p>Roles are managed through the API for now.</p>,
  },
  {
    path: "/variance/settings/role/:roleID",
    title: "Role",
    text: <p>Roles are managed through the API for now.</p>,
  },
  {
    path: "/variance/settings/user",
    title: "Users",
    text: <p>Users are managed through the API for now.</p>,
  },
  {
    path: "/variance/settings/user/:userID",
    title: "User",
    text: <p>Users are managed through the API for now.</p>,
  },
];

function PageFallback() {
  return <div className="spinner spinner--page" role="status" aria-label="Loading" />;
}

/** `/`: level 1 for those who may see it, else the first screen they may open. */
function Home() {
  const canView = StartupContext.useSelector(selectCanViewDashboard);
  const menu = StartupContext.useSelector(selectMenu);
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
  lists: selectHasAbility(abilities.settingsListsManage),
  organisation: selectHasAbility(abilities.settingsOrganisationManage),
  backups: selectHasAbility(abilities.settingsBackupsManage),
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
  return (
    <Routes>
      <Route path="/" element={<Home />} />
      <Route path="/sso/*" element={<Navigate to="/" replace />} />
      <Route path="/forgotPassword/*" element={<Navigate to="/" replace />} />
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
          path="/variance/settings/list"
          element={
            <Gate screen="lists">
              <ExclusionListsPage />
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
          path="/variance/settings/org"
          element={
            <Gate screen="organisation">
              <OrganisationPage />
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
        {placeholders.map((p) => (
          <Route
            key={p.path}
            path={p.path}
            element={<PlaceholderPage title={p.title}>{p.text}</PlaceholderPage>}
          />
        ))}
        <Route path="/integration/overview" element={<ImportPage />} />
      </Route>
      <Route path="/sign-up/:step?" element={<SectionPage title="Sign Up" />} />
      <Route path="*" element={<SignedInNotFound />} />
    </Routes>
  );
}
