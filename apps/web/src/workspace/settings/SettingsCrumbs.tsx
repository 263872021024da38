import { Link } from "react-router";

/** Above a settings editor: the way back to the settings menu and to its list. */
export function SettingsCrumbs({ list, listTitle }: { list: string; listTitle: string }) {
  return (
    <nav aria-label="Breadcrumbs" className="settings-crumbs">
      <Link to="/variance/settings/menu">Settings</Link> / <Link to={list}>{listTitle}</Link>
    </nav>
  );
}
