import {
  dropdownMachine,
  dropdownNoResults,
  selectHasNoData,
  selectMenu,
  selectOpensDashboards,
} from "@varia/machines";
import { useActorRef, useSelector } from "@xstate/react";
import { useEffect, useMemo } from "react";
import {
  Autocomplete,
  Collection,
  Header,
  Input,
  Menu,
  MenuItem,
  MenuSection,
  SearchField,
} from "react-aria-components";
import { useNavigate } from "react-router";
import { fromPromise } from "xstate";
import { StartupContext } from "../../shell/startup-context";
import { AppDialog } from "../../ui/Dialog";
import { Icon } from "../../ui/Icon";
import { useViewFilter } from "../filters/use-view-filter";
import { moreKey, searchEverything, searchGroups, searchResultHref } from "./search-everything";

/**
 * The search modal: 'Search for...' screens, clients, services and salespeople. The dropdown machine
 * holds the text and the results (searched on the server 150 ms after the typing rests); React
 * Aria's autocomplete moves through them with the arrow keys, Enter opens one.
 */
export function SearchModal({ onClose }: { onClose: () => void }) {
  const menu = StartupContext.useSelector(selectMenu);
  const noData = StartupContext.useSelector(selectHasNoData);
  const navigate = useNavigate();
  const { filter } = useViewFilter();
  // Clients, services and salespeople open on the dashboards: searched only for those who see them.
  const dashboards = StartupContext.useSelector(selectOpensDashboards);
  const screens = useMemo(
    () => [
      ...(dashboards
        ? [{ title: "Stock Type Overview", path: "/variance/dashboard/stockTypeOverview" }]
        : []),
      ...menu.filter((m) => m.key !== "dashboard"),
    ],
    [menu, dashboards],
  );
  const machine = useMemo(
    () =>
      dropdownMachine.provide({
        actors: {
          lookup: fromPromise(({ input }) => searchEverything(input.text, screens, dashboards && !noData)),
        },
      }),
    [screens, dashboards, noData],
  );
  const actor = useActorRef(machine, { input: { remote: true } });
  useEffect(() => actor.send({ type: "dropdown.open" }), [actor]);
  const text = useSelector(actor, (s) => s.context.filter);
  const options = useSelector(actor, (s) => s.context.options);
  const searching = useSelector(
    actor,
    (s) => s.matches({ open: { search: "searching" } }) || s.matches({ open: { search: "waiting" } }),
  );
  const sections = searchGroups
    .map((g) => ({
      ...g,
      items: options.filter((o) => o.key.startsWith(`${g.prefix}:`) || o.key === moreKey(g.prefix)),
    }))
    .filter((g) => g.items.length > 0);
  // The lines saying how many more a group found are read, not chosen.
  const notResults = searchGroups.map((g) => moreKey(g.prefix));

  return (
    <AppDialog title="Search" onClose={onClose} className="search-dialog">
      <Autocomplete
        inputValue={text}
        onInputChange={(value) => actor.send({ type: "dropdown.filter", text: value })}
      >
        <SearchField
          className="search-field"
          aria-label="Search for screens, clients, services and salespeople"
          autoFocus
        >
          <Icon name="search" size={20} />
          <Input className="search-field__input" placeholder="Search for..." />
        </SearchField>
        <Menu
          className="search-results"
          aria-label="Results"
          items={sections}
          disabledKeys={notResults}
          onAction={(key) => {
            onClose();
            navigate(searchResultHref(String(key), filter));
          }}
          renderEmptyState={() => (
            <p className="search-results__empty" role="status">
              {searching ? "Searching…" : dropdownNoResults}
              {!searching && noData && dashboards ? (
                <span className="search-results__hint">
                  {" "}
                  No data is imported yet: clients, services and salespeople are found here after an import.
                </span>
              ) : null}
            </p>
          )}
        >
          {(section) => (
            <MenuSection id={section.prefix} className="search-results__section">
              <Header className="search-results__header">{section.title}</Header>
              <Collection items={section.items}>
                {(o) => (
                  <MenuItem
                    id={o.key}
                    className={notResults.includes(o.key) ? "search-results__more" : "search-results__item"}
                    textValue={o.label}
                  >
                    <span>{o.label}</span>
                    {o.detail ? <span className="listbox__detail">{o.detail}</span> : null}
                  </MenuItem>
                )}
              </Collection>
            </MenuSection>
          )}
        </Menu>
      </Autocomplete>
    </AppDialog>
  );
}
