import { type Kysely, sql } from "kysely";
import type { Schema } from "../db/schema";

/**
 * The first day of the latest month an organisation has invoiced (null with no lines). Months after
 * it hold Actual data only because a prepaid line's service period reaches into them: they have not
 * happened yet, so the actual periods (and every default month) stop here.
 */
export async function latestInvoicedMonth(db: Kysely<Schema>, organisationId: string): Promise<Date | null> {
  const result = await sql<{ month: Date | string | null }>`
    select date_trunc('month', max(invoice_date))::date as month
    from invoice_lines where organisation_id = ${organisationId} and record_type = 'Actual'`.execute(db);
  const month = result.rows[0]?.month;
  if (month === null || month === undefined) return null;
  const date = month instanceof Date ? month : new Date(`${month}T00:00:00Z`);
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
}
