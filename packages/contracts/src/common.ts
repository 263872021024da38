import { z } from "zod";

/** A period as the API carries it (spec 3.2): year, optional month, optional day. */
export const periodSchema = z.object({
  yearNo: z.number().int().min(1).max(9999),
  monthNo: z.number().int().min(1).max(12).optional(),
  dayNo: z.number().int().min(1).max(31).optional(),
});
export type PeriodDto = z.infer<typeof periodSchema>;

/** A year-month as sent in query strings (spec 7.3: dates sent as year-month). */
export const yearMonthSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "expected YYYY-MM");

/** Ping responses carry a success flag (spec 3.8). */
export const pingSchema = z.object({ success: z.boolean() });

export const emptySchema = z.void();

/** The error body the server sends with 4xx/5xx answers. */
export const errorBodySchema = z.object({
  message: z.string(),
  code: z.string().optional(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
