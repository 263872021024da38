import type { Contract } from "@varia/contracts";
import { type Period, periodFormat } from "@varia/period";
import { z } from "zod";

/**
 * The client-side call checks of docs/api.md#answers-and-errors, read from the contract's zod
 * query shape: a required parameter must be defined and not null; an optional one may be left
 * undefined (it is omitted) but not null.
 */
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

const pad = (n: number) => String(n).padStart(2, "0");

/** One query value as text; periods and dates as year-month, a bare year as the year (docs/api.md). */
export function encodeQueryValue(name: string, value: unknown): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new Error(`The parameter '${name}' is not a valid date.`);
    // The calendar month the caller sees (local time), as a period picked in the browser would be.
    return `${String(value.getFullYear()).padStart(4, "0")}-${pad(value.getMonth() + 1)}`;
  }
  if (isPeriod(value)) {
    return value.monthNo === undefined ? periodFormat(value, "year") : periodFormat(value, "yearMonth");
  }
  if (typeof value === "object" && value !== null) {
    throw new Error(`The parameter '${name}' cannot be sent in a query string.`);
  }
  return String(value);
}

/** The query string of a call: undefined values left out, arrays as repeated keys. */
export function buildQueryString(query: Record<string, unknown> | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) params.append(name, encodeQueryValue(name, item));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}
