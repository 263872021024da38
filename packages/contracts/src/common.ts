import { z } from "zod";

/** A period as the API carries it (docs/api.md#shapes): year, optional month, optional day. */
export const periodSchema = z.object({
  yearNo: z.number().int().min(1).max(9999),
  monthNo: z.number().int().min(1).max(12).optional(),
  dayNo: z.number().int().min(1).max(31).optional(),
});
export type PeriodDto = z.infer<typeof periodSchema>;

/**
 * The months Varia speaks of: every period the API takes and every date an import holds lies from
 * January 1900 to December 2999, so that the engine's steps from one (500 months back for a series,
 * 12 ahead for a forecast) stay within the years a period can have.
 */
export const supportedMonths = { first: "1900-01", last: "2999-12" } as const;

/**
 * A year-month as sent in query strings (docs/api.md#filter-parameters: dates sent as year-month), 1900-01 to
 * 2999-12.
 */
export const yearMonthSchema = z
  .string()
  .regex(
    /^(19\d\d|2\d\d\d)-(0[1-9]|1[0-2])$/,
    `expected a month YYYY-MM from ${supportedMonths.first} to ${supportedMonths.last}`,
  );

/** Ping responses carry a success flag (docs/api.md#shapes). */
/**
 * A name people give (a user, a role, a token, a list, the organisation): trimmed, not empty, at
 * most `max` characters, on one line: a line break or another control character would break the
 * lines of a mail, a log or a CSV it is written into (docs/security.md, "Input").
 */
export const nameSchema = (max: number) =>
  z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`)
    .regex(/^\P{Cc}*$/u, "must be one line of text, without line breaks or control characters");

export const pingSchema = z.object({ success: z.boolean() });

export const emptySchema = z.void();

/** The error body the server sends with 4xx/5xx answers. */
export const errorBodySchema = z.object({
  message: z.string(),
  code: z.string().optional(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
