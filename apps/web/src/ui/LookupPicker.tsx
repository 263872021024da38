import {
  type DropdownLookupOutput,
  type DropdownOption,
  dropdownMachine,
  dropdownNoResults,
} from "@varia/machines";
import { useActorRef, useSelector } from "@xstate/react";
import { useMemo } from "react";
import {
  Button,
  Collection,
  ComboBox,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  ListBoxLoadMoreItem,
  Popover,
} from "react-aria-components";
import { fromPromise } from "xstate";
import { Icon } from "./Icon";

export type LookupSearch = (
  text: string,
  startRow: number,
  rowLimit: number,
) => Promise<DropdownLookupOutput>;

/**
 * A picker that searches on the server as the user types (a client, an item, a salesperson): the
 * dropdown machine holds the text, the options and the searching (a lookup call 150 ms after the
 * typing rests, the next page when the list is scrolled to its end); React Aria's combo box draws it
 * with keyboard navigation and says 'No results' when nothing matches.
 */
export function LookupPicker({
  label,
  search,
  value,
  onChange,
  placeholder = "Search for...",
  invalid = false,
}: {
  label: string;
  search: LookupSearch;
  value: DropdownOption | null;
  onChange: (option: DropdownOption | null) => void;
  placeholder?: string;
  /** Marks the field as one to correct (aria-invalid, a red border): a form's failed save takes the focus to it. */
  invalid?: boolean;
}) {
  const machine = useMemo(
    () =>
      dropdownMachine.provide({
        actors: { lookup: fromPromise(({ input }) => search(input.text, input.startRow, input.rowLimit)) },
      }),
    [search],
  );
  const actor = useActorRef(machine, { input: { remote: true, selected: value } });
  const options = useSelector(actor, (s) => s.context.options);
  const searching = useSelector(
    actor,
    (s) => s.matches({ open: { search: "searching" } }) || s.matches({ open: { search: "waiting" } }),
  );
  const loadingMore = useSelector(actor, (s) => s.matches({ open: { search: "loadingMore" } }));
  const failed = useSelector(actor, (s) => s.matches({ open: { search: "failed" } }));
  const items = value && !options.some((o) => o.key === value.key) ? [value, ...options] : options;

  return (
    <ComboBox
      className="lookup-picker"
      items={items}
      selectedKey={value?.key ?? null}
      defaultInputValue={value?.label ?? ""}
      menuTrigger="focus"
      allowsEmptyCollection
      isInvalid={invalid}
      onOpenChange={(open) => actor.send({ type: open ? "dropdown.open" : "dropdown.close" })}
      onInputChange={(text) => {
        if (text !== value?.label) actor.send({ type: "dropdown.filter", text });
      }}
      onSelectionChange={(key) => {
        const option = key === null ? null : (items.find((o) => o.key === key) ?? null);
        actor.send({ type: "dropdown.select", key: option?.key ?? null });
        if ((option?.key ?? null) !== (value?.key ?? null)) onChange(option);
      }}
    >
      <Label className="field__label">{label}</Label>
      <div className="lookup-picker__control">
        <Input className="lookup-picker__input" placeholder={placeholder} />
        {value ? (
          <button
            type="button"
            className="icon-button lookup-picker__clear"
            aria-label={`Clear ${label.toLowerCase()}`}
            onClick={() => {
              actor.send({ type: "dropdown.select", key: null });
              onChange(null);
            }}
          >
            <Icon name="close" size={16} />
          </button>
        ) : null}
        <Button
          className="icon-button lookup-picker__toggle"
          aria-label={`Show ${label.toLowerCase()} options`}
        >
          <Icon name="chevron" size={16} rotate={90} />
        </Button>
      </div>
      <Popover className="popover popover--list" offset={4} containerPadding={12}>
        <ListBox
          className="listbox"
          renderEmptyState={() => (
            <div className="listbox__empty" role="status">
              {searching
                ? "Searching…"
                : failed
                  ? "The search failed; type again to retry."
                  : dropdownNoResults}
            </div>
          )}
        >
          <Collection items={items}>
            {(o) => (
              <ListBoxItem id={o.key} className="listbox__item" textValue={o.label}>
                <span>{o.label}</span>
                {o.detail ? <span className="listbox__detail">{o.detail}</span> : null}
              </ListBoxItem>
            )}
          </Collection>
          <ListBoxLoadMoreItem
            className="listbox__more"
            isLoading={loadingMore}
            onLoadMore={() => actor.send({ type: "dropdown.loadMore" })}
          >
            Loading more…
          </ListBoxLoadMoreItem>
        </ListBox>
      </Popover>
    </ComboBox>
  );
}
