import { selectActualPeriods, selectMenu, selectOpensDashboards } from "@varia/machines";
import { useEffect, useRef } from "react";
import { Link, useLocation } from "react-router";
import { StartupContext } from "../../shell/startup-context";
import { Icon } from "../../ui/Icon";
import { readViewFilter } from "../filters/view-filter";
import { narrowScreen } from "../workspace-actors";
import { type DrillLevel, drillCrumbs, drillLevelOf, hasStep, hasSubject, level1Href } from "./drill-path";
import { useSubjectNames } from "./use-subject-names";

const levelNames: Record<DrillLevel, string> = {
  1: "Overview of the change",
  2: "Contributors of one type and sign",
  3: "One client, service or salesperson",
  4: "Invoice lines",
};

const hints: Record<DrillLevel, string> = {
  1: "",
  2: "Click a step of the waterfall or a bar of Variance by type.",
  3: "Open a contributor, a client of a list or a row of a table.",
  4: "Use Invoice Data on a detail page.",
};

/**
 * The navigation map (docs/behaviour.md#widgets-and-panels): the four levels of the drill-down and the other
 * screens, with the current view marked and each level on its path a link. A panel beside the page, toggled
 * on its own (the workspace machine's navigationMap region); Escape closes it. Opened, its heading
 * takes the focus; closed with the focus in it (its button, Escape), `onClose(true)` asks for the
 * focus back on the button that opened it (docs/behaviour.md, "Keyboard").
 */

export function NavigationMap({ onClose }: { onClose: (returnFocus: boolean) => void }) {
  const location = useLocation();
  const periods = StartupContext.useSelector(selectActualPeriods);
  // Only what the user's roles open: the levels with the dashboards, the other screens by the menu.
  const menu = StartupContext.useSelector(selectMenu);
  const dashboards = StartupContext.useSelector(selectOpensDashboards);
  const filter = readViewFilter(location.search, periods, location.pathname);
  const level = drillLevelOf(location.pathname);
  const names = useSubjectNames(
    level && level >= 3
      ? filter
      : { ...filter, thirdClientID: null, thirdStockItemID: null, salespersonID: null },
  );
  // The path shown: the current one, or, off the dashboards, level 1 alone.
  const path = drillCrumbs(level ?? 1, filter, names);
  const onPath = new Map(path.map((c) => [c.level, c]));
  if (!level) onPath.set(1, { level: 1, label: "Level 1", href: level1Href(filter) });
  const reachable = (l: DrillLevel) =>
    dashboards && (onPath.has(l) || (l === 2 && hasStep(filter)) || (l === 3 && hasSubject(filter)));

  const root = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose(root.current?.contains(document.activeElement) ?? false);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [onClose]);

  // Over the page on a narrow screen (apps/web/README.md, "Narrow screens"), the map closes once a
  // link of it is followed, to show the page it leads to; beside the page it stays open.
  const followed = () => {
    if (window.matchMedia(narrowScreen).matches) onClose(false);
  };

  const others = [
    { path: "/variance/forecast", label: "Forecast" },
    { path: "/variance/reports/types", label: "Reports" },
    { path: "/variance/settings/export", label: "Data export" },
  ].filter((o) => menu.some((m) => m.path === o.path));
  return (
    <aside className="navigation-map" aria-labelledby="navigation-map-title" ref={root}>
      <header className="navigation-map__header">
        <h2 id="navigation-map-title" ref={heading} tabIndex={-1}>
          Navigation map
        </h2>
        <button
          type="button"
          className="icon-button"
          aria-label="Close the navigation map"
          onClick={() => onClose(true)}
        >
          <Icon name="close" size={16} />
        </button>
      </header>
      <ol className="navigation-map__levels">
        {([1, 2, 3, 4] as const).map((l) => {
          const crumb = onPath.get(l);
          const current = level === l;
          return (
            <li
              key={l}
              className={`navigation-map__level${current ? " is-current" : ""}${crumb ? " is-on-path" : ""}`}
            >
              <span className="navigation-map__dot" aria-hidden="true">
                {l}
              </span>
              <div>
                <p className="navigation-map__name">
                  Level {l}: {levelNames[l]}
                </p>
                {crumb && reachable(l) ? (
                  <Link
                    to={crumb.href}
                    onClick={followed}
                    aria-current={current ? "page" : undefined}
                    className="navigation-map__level-link"
                  >
                    {crumb.label}
                    {current ? <span className="navigation-map__here"> (you are here)</span> : null}
                  </Link>
                ) : (
                  <p className="navigation-map__hint">
                    {dashboards ? hints[l] : l === 1 ? "Your roles do not open the dashboards." : ""}
                  </p>
                )}
              </div>
            </li>
          );
        })}
      </ol>
      <ul className="navigation-map__others">
        {others.map((o) => {
          const current = location.pathname.startsWith(o.path);
          return (
            <li key={o.path} className={current ? "is-current" : undefined}>
              <Link
                to={o.path}
                onClick={followed}
                aria-current={current ? "page" : undefined}
                className={`navigation-map__link${current ? " navigation-map__current" : ""}`}
              >
                {o.label}
                {current ? <span className="navigation-map__here"> (you are here)</span> : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </aside>
  );
}
