import { type AbilityRef, abilities, menuCatalogue } from "@varia/contracts";
import { selectMenu, selectProfile } from "@varia/machines";
import { Link, useLocation } from "react-router";
import { PageFrame } from "../pages/PageFrame";
import { StartupContext } from "../shell/startup-context";
import { settingsEntries } from "./settings/settings-entries";

/** The screen an address belongs to, with the ability that opens it: the dashboards unless another. */
function screenOf(pathname: string): { key: string; title: string; what: string; ability: AbilityRef } {
  const entry = [...settingsEntries, ...menuCatalogue].find(
    (e) => e.key !== "dashboard" && (pathname === e.path || pathname.startsWith(`${e.path}/`)),
  );
  if (entry)
    return { key: entry.key, title: entry.title, what: `the ${entry.title} screen`, ability: entry.ability };
  return {
    key: "dashboard",
    title: "Dashboard",
    what: "the variance dashboards",
    ability: abilities.varianceDashboardView,
  };
}

/**
 * A screen the user's roles do not open (the dashboard, or another screen behind its ability): what
 * they lack, whom to ask, and what they may open instead.
 */
export function NoPermissionPage() {
  const menu = StartupContext.useSelector(selectMenu);
  const profile = StartupContext.useSelector(selectProfile);
  const screen = screenOf(useLocation().pathname);
  // Every screen of their menu but the one refused: the dashboards too, when it is another screen.
  const others = menu.filter((item) => item.key !== screen.key);
  const { moduleSystemName, featureSystemName, abilitySystemName } = screen.ability;
  return (
    <PageFrame title={screen.title}>
      <div className="empty-state no-permission">
        <h2>You do not have access to {screen.what}</h2>
        <p>
          Your roles at {profile?.organisationName ?? "your organisation"} do not include the ability{" "}
          <strong>
            {moduleSystemName} / {featureSystemName} / {abilitySystemName}
          </strong>
          . An administrator can add it to one of your roles.
        </p>
        {others.length ? (
          <>
            <p>You can open:</p>
            <ul className="no-permission__links">
              {others.map((item) => (
                <li key={item.key}>
                  <Link to={item.path}>{item.title}</Link>
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p>Your roles do not open any other screen yet.</p>
        )}
      </div>
    </PageFrame>
  );
}
