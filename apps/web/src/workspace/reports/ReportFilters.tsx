import type { ReportFilter } from "@varia/contracts";
import { LookupPicker } from "../../ui/LookupPicker";
import { SelectField } from "../../ui/Select";
import { searchClients, searchItems } from "../filters/lookups";
import type { ReportValues } from "./report-values";

const anyValue = "";

/** The form of a report's filters (getReportFilter): periods and choices, pickers, a checkbox. */
export function ReportFilters({
  filters,
  values,
  labels,
  onChange,
}: {
  filters: ReportFilter[];
  values: ReportValues;
  /** The names of picked clients and services, by filter name. */
  labels: Record<string, string>;
  onChange: (name: string, value: string | boolean | null, label?: string) => void;
}) {
  return (
    <div className="report-filters">
      {filters.map((f) => {
        const value = values[f.name];
        if (f.kind === "boolean")
          return (
            <label key={f.name} className="checkbox report-filters__checkbox">
              <input
                type="checkbox"
                checked={value === true}
                onChange={(event) => onChange(f.name, event.target.checked)}
              />
              {f.label}
            </label>
          );
        if (f.kind === "lookup") {
          const search = f.lookup === "Lookup/GetSkuList" ? searchItems : searchClients;
          const key = typeof value === "string" ? value : null;
          return (
            <LookupPicker
              key={f.name}
              label={f.label}
              search={search}
              value={key ? { key, label: labels[f.name] ?? `#${key}` } : null}
              onChange={(o) => onChange(f.name, o?.key ?? null, o?.label)}
            />
          );
        }
        const options = [
          ...(f.required || f.default !== null
            ? []
            : [{ value: anyValue, label: `Any ${f.label.toLowerCase()}` }]),
          ...(f.options ?? []),
        ];
        return (
          <SelectField
            key={f.name}
            label={f.label}
            options={options}
            value={typeof value === "string" ? value : anyValue}
            onChange={(v) => onChange(f.name, v === anyValue ? null : v)}
          />
        );
      })}
    </div>
  );
}
