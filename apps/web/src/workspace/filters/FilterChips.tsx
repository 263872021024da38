import { Icon } from "../../ui/Icon";
import { useFilterNames } from "./use-filter-names";
import type { ViewFilter } from "./view-filter";

/**
 * The filters in force beyond the two months, each with a button that removes it; a client, service
 * or salesperson by name, asked for when the address has only its id ('#18' until it is known).
 */
export function FilterChips({
  filter,
  onChange,
}: {
  filter: ViewFilter;
  onChange: (changes: Partial<ViewFilter>) => void;
}) {
  const names = useFilterNames(filter);
  const chips: { label: string; value: string; clear: Partial<ViewFilter> }[] = [];
  if (filter.stockType)
    chips.push({ label: "Stock type", value: filter.stockType, clear: { stockType: null } });
  if (filter.salespersonID || filter.salesperson)
    chips.push({
      label: "Salesperson",
      value: filter.salesperson ?? names.salesperson ?? `#${filter.salespersonID}`,
      clear: { salespersonID: null, salesperson: null },
    });
  if (filter.clientID || filter.client)
    chips.push({
      label: "Client",
      value: filter.client ?? names.client ?? `#${filter.clientID}`,
      clear: { clientID: null, client: null },
    });
  if (filter.stockItemID || filter.stockItem)
    chips.push({
      label: "Service",
      value: filter.stockItem ?? names.service ?? `#${filter.stockItemID}`,
      clear: { stockItemID: null, stockItem: null },
    });
  if (!chips.length) return null;
  return (
    <ul className="filter-chips" aria-label="Filters in force">
      {chips.map((chip) => (
        <li key={chip.label} className="filter-chip">
          <span>
            {chip.label}: <strong>{chip.value}</strong>
          </span>
          <button
            type="button"
            className="icon-button icon-button--small"
            aria-label={`Remove the ${chip.label.toLowerCase()} filter`}
            onClick={() => onChange(chip.clear)}
          >
            <Icon name="close" size={12} />
          </button>
        </li>
      ))}
      {chips.length > 1 ? (
        <li>
          <button
            type="button"
            className="button button--link"
            onClick={() => onChange(Object.assign({}, ...chips.map((c) => c.clear)))}
          >
            Clear all
          </button>
        </li>
      ) : null}
    </ul>
  );
}
