import { Link } from "react-router";
import { EmptyState, PageFrame } from "../../pages/PageFrame";
import { Icon } from "../../ui/Icon";
import { useAllowedSettings } from "./settings-entries";
import "./settings.css";

/** `/variance/settings/menu`: the settings screens the user's abilities open, each with what it is for. */
export function SettingsMenuPage() {
  const entries = useAllowedSettings();
  return (
    <PageFrame title="Settings">
      {entries.length ? (
        <ul className="settings-menu">
          {entries.map((entry) => (
            <li key={entry.key} className="settings-menu__entry">
              <Icon name={entry.icon} size={24} />
              {/* The whole card is the link's target (settings.css); its name is the title alone. */}
              <Link
                to={entry.path}
                className="settings-menu__title"
                aria-describedby={`settings-${entry.key}-description`}
              >
                {entry.title}
              </Link>
              <span id={`settings-${entry.key}-description`} className="settings-menu__description">
                {entry.description}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <EmptyState title="No settings to manage">
          <p>
            Your roles do not include managing any settings. An administrator can add them to one of your
            roles.
          </p>
        </EmptyState>
      )}
    </PageFrame>
  );
}
