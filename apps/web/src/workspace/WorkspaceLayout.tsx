import { logout } from "@varia/contracts";
import {
  selectMenu,
  selectMenuExpanded,
  selectNavigationMapOpen,
  selectProfile,
  selectProfileOpen,
  selectSearchOpen,
} from "@varia/machines";
import { type ReactNode, useEffect, useRef } from "react";
import { NavLink, useNavigate } from "react-router";
import { api } from "../api";
import { Logo } from "../shell/LoadingOverlay";
import { StartupContext } from "../shell/startup-context";
import { Icon, type IconName } from "../ui/Icon";
import { MenuButton } from "../ui/Menu";
import { NavigationMap } from "./navigation/NavigationMap";
import { PageTransition } from "./navigation/PageTransition";
import { ProfileModal } from "./profile/ProfileModal";
import { SearchModal } from "./search/SearchModal";
import { useAllowedSettings } from "./settings/settings-entries";
import { usePermissionRefresh } from "./use-permission-refresh";
import { narrowScreen, useAlert, WorkspaceContext } from "./workspace-actors";

export const logoutFailedMessage = "Logout was not successful.";

const menuIcons: Record<string, IconName> = {
  dashboard: "dashboard",
  forecast: "forecast",
  reports: "reports",
  export: "export",
  users: "users",
  roles: "roles",
  lists: "lists",
  backups: "backups",
  organisation: "organisation",
  integration: "integration",
};

/**
 * The signed-in frame: the side menu from GetAuthorisedMenu (expanded or collapsed), the top bar
 * with the search ('Search for...', also Ctrl+K or /) and the user's menu (profile, the settings
 * their abilities open, logout), and the page. Every new page asks the server again for the user's
 * abilities (usePermissionRefresh). The search and profile modals open from here; each panel is a region of the workspace
 * machine.
 */
export function WorkspaceLayout({ children }: { children: ReactNode }) {
  const menu = StartupContext.useSelector(selectMenu);
  const profile = StartupContext.useSelector(selectProfile);
  const startup = StartupContext.useActorRef();
  const workspace = WorkspaceContext.useActorRef();
  const expanded = WorkspaceContext.useSelector(selectMenuExpanded);
  const searchOpen = WorkspaceContext.useSelector(selectSearchOpen);
  const profileOpen = WorkspaceContext.useSelector(selectProfileOpen);
  const mapOpen = WorkspaceContext.useSelector(selectNavigationMapOpen);
  const alert = useAlert();
  const navigate = useNavigate();
  const hasSettings = useAllowedSettings().length > 0;
  usePermissionRefresh();
  const mapButton = useRef<HTMLButtonElement>(null);
  const closeMap = (returnFocus: boolean) => {
    workspace.send({ type: "navigationMap.close" });
    if (returnFocus) mapButton.current?.focus();
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing = target?.closest("input, textarea, select, [contenteditable=true]");
      if ((event.key === "k" && (event.ctrlKey || event.metaKey)) || (event.key === "/" && !typing)) {
        event.preventDefault();
        workspace.send({ type: "search.open" });
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [workspace]);

  // On a narrow screen the expanded menu is a strip above the page (apps/web/README.md, "Narrow
  // screens"): following one of its entries folds it, so the page it leads to starts at the top.
  const followed = () => {
    if (expanded && window.matchMedia(narrowScreen).matches) workspace.send({ type: "menu.followed" });
  };

  const signOut = async () => {
    try {
      await api.call(logout);
      api.clearCache();
      startup.send({ type: "auth.signedOut" });
      window.history.replaceState(null, "", "/");
    } catch {
      alert(logoutFailedMessage);
    }
  };

  return (
    <div className={`workspace workspace--menu-${expanded ? "expanded" : "collapsed"}`}>
      <a className="skip-link" href="#main-content">
        Skip to content
      </a>
      <nav className="side-menu" aria-label="Main">
        <div className="side-menu__inner">
          <div className="side-menu__brand">
            <Logo size={28} />
            <span className="side-menu__label">Varia</span>
            <button
              type="button"
              className="icon-button side-menu__toggle"
              aria-label={expanded ? "Collapse the menu" : "Expand the menu"}
              aria-expanded={expanded}
              aria-controls="side-menu-items"
              onClick={() => workspace.send({ type: "menu.toggle" })}
            >
              <span className="side-menu__toggle-wide">
                <Icon name="chevron" size={16} rotate={expanded ? 180 : undefined} />
              </span>
              <span className="side-menu__toggle-narrow">
                <Icon name={expanded ? "close" : "menu"} size={20} />
              </span>
            </button>
          </div>
          <ul id="side-menu-items">
            {menu.map((item) => (
              <li key={item.key}>
                <NavLink
                  to={item.path}
                  className={({ isActive }) => `side-menu__link${isActive ? " is-active" : ""}`}
                  title={expanded ? undefined : item.title}
                  aria-label={expanded ? undefined : item.title}
                  onClick={followed}
                >
                  <Icon name={menuIcons[item.key] ?? "dashboard"} size={20} />
                  <span className="side-menu__label">{item.title}</span>
                </NavLink>
              </li>
            ))}
          </ul>
        </div>
      </nav>
      <div className="workspace__main">
        <header className="top-bar">
          <span className="top-bar__org">{profile?.organisationName}</span>
          <button
            type="button"
            className="search-trigger"
            onClick={() => workspace.send({ type: "search.open" })}
          >
            <Icon name="search" size={16} />
            <span>Search for...</span>
            <kbd>Ctrl K</kbd>
          </button>
          <span className="top-bar__spacer" />
          <button
            type="button"
            className={`button button--secondary button--small${mapOpen ? " is-pressed" : ""}`}
            aria-pressed={mapOpen}
            aria-controls={mapOpen ? "navigation-map" : undefined}
            ref={mapButton}
            onClick={() => workspace.send({ type: "navigationMap.toggle" })}
          >
            <Icon name="map" size={16} />
            <span className="top-bar__label">Navigation map</span>
          </button>
          <MenuButton
            label={`Account of ${profile?.name ?? "the user"}`}
            className="button button--secondary button--small top-bar__user"
            buttonContent={
              <>
                <Icon name="user" size={16} />
                <span className="top-bar__label">{profile?.name}</span>
              </>
            }
            actions={[
              { id: "profile", label: "Profile", onAction: () => workspace.send({ type: "profile.open" }) },
              ...(hasSettings
                ? [{ id: "settings", label: "Settings", onAction: () => navigate("/variance/settings/menu") }]
                : []),
              { id: "logout", label: "Logout", onAction: signOut },
            ]}
          />
        </header>
        <div className="workspace__body">
          <main id="main-content" className="workspace__content" tabIndex={-1}>
            <PageTransition>{children}</PageTransition>
          </main>
          {mapOpen ? (
            <div id="navigation-map" className="workspace__map">
              <NavigationMap onClose={closeMap} />
            </div>
          ) : null}
        </div>
      </div>
      {searchOpen ? <SearchModal onClose={() => workspace.send({ type: "search.close" })} /> : null}
      {profileOpen ? <ProfileModal onClose={() => workspace.send({ type: "profile.close" })} /> : null}
    </div>
  );
}
