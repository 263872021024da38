import { selectActualPeriods } from "@varia/machines";
import { periodFormat, periodKey, periodsSortNewestFirst } from "@varia/period";
import { useState } from "react";
import { StartupContext } from "../../shell/startup-context";
import { Icon } from "../../ui/Icon";
import { LookupPicker } from "../../ui/LookupPicker";
import { PopoverButton } from "../../ui/Popover";
import { SelectField } from "../../ui/Select";
import { searchClients, searchItems, searchSalespeople } from "./lookups";
import { useFilterNames } from "./use-filter-names";
import type { StockType, ViewFilter } from "./view-filter";

/** The filters the panel sets; the rest of the view's filter stays as it is. */
type PanelFields = Pick<
  ViewFilter,
  | "dateFrom"
  | "dateTo"
  | "stockType"
  | "clientID"
  | "client"
  | "stockItemID"
  | "stockItem"
  | "salespersonID"
  | "salesperson"
>;

const cleared: Partial<PanelFields> = {
  stockType: null,
  clientID: null,
  client: null,
  stockItemID: null,
  stockItem: null,
  salespersonID: null,
  salesperson: null,
};

export const periodOrderMessage = "The first month must come before the second.";

/** How many of the panel's filters (beyond the two months) are set. */
export function activeFilterCount(filter: ViewFilter) {
  return [
    filter.stockType,
    filter.clientID ?? filter.client,
    filter.stockItemID ?? filter.stockItem,
    filter.salespersonID ?? filter.salesperson,
  ].filter(Boolean).length;
}

/**
 * The filter button and its panel: the two compared months (from the actual periods, newest first),
 * stock type, and salesperson, client and item pickers that search as you type. Apply writes the
 * filter to the address.
 */
export function FilterPanel({
  filter,
  onApply,
}: {
  filter: ViewFilter;
  onApply: (changes: Partial<ViewFilter>) => void;
}) {
  const [open, setOpen] = useState(false);
  const count = activeFilterCount(filter);
  return (
    <PopoverButton
      title="Filter"
      isOpen={open}
      onOpenChange={setOpen}
      buttonContent={
        <>
          <Icon name="filter" size={16} />
          Filter
          {count ? (
            <span className="count-badge">
              {count}
              <span className="visually-hidden"> active</span>
            </span>
          ) : null}
        </>
      }
    >
      {(close) => (
        <FilterForm
          filter={filter}
          onApply={(changes) => {
            onApply(changes);
            close();
          }}
        />
      )}
    </PopoverButton>
  );
}

function FilterForm({
  filter,
  onApply,
}: {
  filter: ViewFilter;
  onApply: (changes: Partial<ViewFilter>) => void;
}) {
  const periods = StartupContext.useSelector(selectActualPeriods);
  const months = periodsSortNewestFirst(periods).map((p) => ({
    value: periodKey(p),
    label: periodFormat(p),
  }));
  const [draft, setDraft] = useState<PanelFields>({
    dateFrom: filter.dateFrom,
    dateTo: filter.dateTo,
    stockType: filter.stockType,
    clientID: filter.clientID,
    client: filter.client,
    stockItemID: filter.stockItemID,
    stockItem: filter.stockItem,
    salespersonID: filter.salespersonID,
    salesperson: filter.salesperson,
  });
  const change = (changes: Partial<PanelFields>) => setDraft((d) => ({ ...d, ...changes }));
  const wrongOrder = Boolean(draft.dateFrom && draft.dateTo && draft.dateFrom >= draft.dateTo);
  // A filter the address names by id only shows its name once known, as its chip does.
  const names = useFilterNames(filter);
  const pick = (id: string | null, label: string | null, known: { id: string | null; name?: string }) =>
    id || label
      ? { key: id ?? label ?? "", label: label ?? (id === known.id ? known.name : undefined) ?? id ?? "" }
      : null;
  return (
    <form
      className="filter-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!wrongOrder) onApply(draft);
      }}
    >
      <div className="filter-form__row">
        <SelectField
          label="From"
          options={months}
          value={draft.dateFrom ?? ""}
          onChange={(value) => change({ dateFrom: value as PanelFields["dateFrom"] })}
        />
        <SelectField
          label="To"
          options={months}
          value={draft.dateTo ?? ""}
          onChange={(value) => change({ dateTo: value as PanelFields["dateTo"] })}
        />
      </div>
      {wrongOrder ? (
        <p className="form__error" role="alert">
          {periodOrderMessage}
        </p>
      ) : null}
      <SelectField
        label="Stock type"
        options={[
          { value: "", label: "All stock types" },
          { value: "Subscription", label: "Subscription" },
          { value: "Product", label: "Product" },
          { value: "Hourly", label: "Hourly" },
        ]}
        value={draft.stockType ?? ""}
        onChange={(value) => change({ stockType: (value || null) as StockType | null })}
      />
      <LookupPicker
        label="Salesperson"
        search={searchSalespeople}
        value={pick(draft.salespersonID, draft.salesperson, {
          id: filter.salespersonID,
          name: names.salesperson,
        })}
        onChange={(o) => change({ salespersonID: o?.key ?? null, salesperson: o?.label ?? null })}
      />
      <LookupPicker
        label="Client"
        search={searchClients}
        value={pick(draft.clientID, draft.client, { id: filter.clientID, name: names.client })}
        onChange={(o) => change({ clientID: o?.key ?? null, client: o?.label ?? null })}
      />
      <LookupPicker
        label="Service"
        search={searchItems}
        value={pick(draft.stockItemID, draft.stockItem, { id: filter.stockItemID, name: names.service })}
        onChange={(o) => change({ stockItemID: o?.key ?? null, stockItem: o?.label ?? null })}
      />
      <div className="filter-form__actions">
        <button
          type="button"
          className="button button--secondary"
          onClick={() => setDraft((d) => ({ ...d, ...cleared }))}
        >
          Clear filters
        </button>
        <button type="submit" className="button button--primary" disabled={wrongOrder}>
          Apply
        </button>
      </div>
    </form>
  );
}
