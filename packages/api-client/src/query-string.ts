import type { Contract } from "@varia/contracts";
import { type Period, periodFormat } from "@varia/period";
import { z } from "zod";

/** Spec 5: required parameters must be defined and not null; optional ones may be omitted, not null. */
export function checkQuery(contract: Contract, query: Record<string, unknown> | undefined): void {
  const schema = contract.query;
  if (!(schema instanceof z.ZodObject)) return;
  for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const value = query?.[name];
    const required = !field.safeParse(undefined).success;
    if (required && (value === undefined || value === null)) {
      throw new Error(`The parameter '${name}' must be defined and cannot be null.`);
    }
    if (value === null) throw new Error(`The parameter '${name}' cannot be null.`);
  }
}

function isPeriod(value: unknown): value is Period {
  return typeof value === "object" && value !== null && "yearNo" in value;
}

function encodeValue(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  // Dates are sent as year-month (spec 7.3).
  if (isPeriod(value))
    return value.monthNo === undefined ? String(value.yearNo) : periodFormat(value, "yearMonth");
  return String(value);
}

/** The query string of a call: undefined values left out, arrays as repeated keys. */
export function buildQueryString(query: Record<string, unknown> | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, encodeValue(item));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}
