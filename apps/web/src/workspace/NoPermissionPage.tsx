import { selectMenu, selectProfile } from "@varia/machines";
import { Link } from "react-router";
import { PageFrame } from "../pages/PageFrame";
import { StartupContext } from "../shell/startup-context";

/**
 * The dashboard of a user whose roles do not include viewing the variance dashboards: what they
 * lack, whom to ask, and what they may open instead.
 */
export function NoPermissionPage() {
  const menu = StartupContext.useSelector(selectMenu);
  const profile = StartupContext.useSelector(selectProfile);
  const others = menu.filter((item) => item.key !== "dashboard");
  return (
    <PageFrame title="Dashboard">
      <div className="empty-state no-permission">
        <h2>You do not have access to the variance dashboards</h2>
        <p>
          Your roles at {profile?.organisationName ?? "your organisation"} do not include the ability{" "}
          <strong>Variance / Dashboard / View</strong>. An administrator can add it to one of your roles.
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
