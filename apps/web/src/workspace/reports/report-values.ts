import type { ReportFilter, ReportRunBody } from "@varia/contracts";

/** The values of a report's filters as the form holds them: text, or a boolean; null is not set. */
export type ReportValues = Record<string, string | boolean | null>;

/**
 * The values of a report's filters from the address (the filter parameters of the view, by the
 * filters' names, matched without regard to case), else each filter's default.
 */
export function readReportValues(filters: readonly ReportFilter[], search: string): ReportValues {
  const params = new URLSearchParams(search);
  const byName = new Map<string, string>();
  for (const [key, value] of params) byName.set(key.toLowerCase(), value);
  const values: ReportValues = {};
  for (const filter of filters) {
    const raw = byName.get(filter.name.toLowerCase());
    if (filter.kind === "boolean") {
      values[filter.name] = raw === undefined ? filter.default === true : raw.toLowerCase() === "true";
      continue;
    }
    const allowed =
      raw !== undefined &&
      raw !== "" &&
      (filter.kind === "lookup" || !filter.options || filter.options.some((o) => o.value === raw));
    values[filter.name] = allowed ? raw : typeof filter.default === "string" ? filter.default : null;
  }
  return values;
}

/** The address's query of a run: every value set, and `run` (the results are shown). */
export function reportValuesSearch(values: ReportValues): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value === null || value === false || value === "") continue;
    params.set(name, String(value));
  }
  params.set("run", "1");
  return `?${params.toString()}`;
}

/** The Report/Run body of the values (ids as numbers' text, booleans as booleans). */
export function reportBody(reportID: string, values: ReportValues): ReportRunBody {
  const body: Record<string, unknown> = { reportID };
  for (const [name, value] of Object.entries(values)) {
    if (value === null || value === "") continue;
    body[name] = value;
  }
  return body as ReportRunBody;
}
