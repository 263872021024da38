import { logout } from "@varia/contracts";
import { selectMenu, selectProfile } from "@varia/machines";
import type { ReactNode } from "react";
import { NavLink } from "react-router";
import { api } from "../api";
import { Logo } from "../shell/LoadingOverlay";
import { StartupContext } from "../shell/startup-context";

/** The signed-in frame: the side menu from GetAuthorisedMenu, the header and the page. */
export function WorkspaceLayout({ children }: { children: ReactNode }) {
  const menu = StartupContext.useSelector(selectMenu);
  const profile = StartupContext.useSelector(selectProfile);
  const startup = StartupContext.useActorRef();

  const signOut = async () => {
    try {
      await api.call(logout);
      api.clearCache();
      startup.send({ type: "auth.signedOut" });
      window.history.replaceState(null, "", "/");
    } catch {
      window.alert("Logout was not successful.");
    }
  };

  return (
    <div className="workspace">
      <nav className="side-menu" aria-label="Main">
        <div className="side-menu__brand">
          <Logo size={28} />
          <span>Varia</span>
        </div>
        <ul>
          {menu.map((item) => (
            <li key={item.key}>
              <NavLink
                to={item.path}
                className={({ isActive }) => `side-menu__link${isActive ? " is-active" : ""}`}
              >
                {item.title}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="workspace__main">
        <header className="top-bar">
          <span className="top-bar__org">{profile?.organisationName}</span>
          <span className="top-bar__spacer" />
          <span className="top-bar__user">{profile?.name}</span>
          <button type="button" className="button button--secondary button--small" onClick={signOut}>
            Logout
          </button>
        </header>
        <div className="workspace__content">{children}</div>
      </div>
    </div>
  );
}
