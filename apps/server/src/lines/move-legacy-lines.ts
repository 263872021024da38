import { sql } from "kysely";
import type { Database } from "../db/database";
import type { StoredLine } from "./line-block";
import { writeLinesByJob } from "./line-blocks-store";

/**
 * Moves invoice lines stored one row each (before migration 040) into blocks, an organisation at a
 * time, each in one transaction. Runs after the migrations; a database without such rows is left
 * as it is.
 */
export async function moveLegacyInvoiceLines(database: Database): Promise<number> {
  const legacy = await sql<{
    table: string | null;
  }>`select to_regclass('invoice_lines')::text as table`.execute(database.db);
  if (!legacy.rows[0]?.table) return 0;
  const organisations = await sql<{ organisation_id: string }>`
    select distinct organisation_id from invoice_lines`.execute(database.db);
  let moved = 0;
  for (const { organisation_id: organisationId } of organisations.rows) {
    moved += await database.bulkTransaction(async (session) => {
      const rows = await sql<
        StoredLine & { jobId: string | null }
      >`select invoice_number as "invoiceNumber", line_number as "lineNumber",
          invoice_date - date '2000-01-01' as "invoiceDay", client_id::float8 as "clientId",
          item_id::float8 as "itemId", coalesce(salesperson_id, 0)::float8 as "salespersonId",
          (quantity * 10000)::float8 as quantity, (unit_price * 10000)::float8 as "unitPrice",
          amount_cents::float8 as "amountCents", cost_cents::float8 as "costCents",
          service_from - date '2000-01-01' as "serviceFromDay", service_to - date '2000-01-01' as "serviceToDay",
          record_type as "recordType", import_job_id::text as "jobId"
        from invoice_lines where organisation_id = ${organisationId}
        order by import_job_id, invoice_number, line_number`.execute(session.db);
      await writeLinesByJob(
        session,
        organisationId,
        rows.rows.map(({ jobId, ...line }) => ({ jobId, line })),
      );
      await sql`delete from invoice_lines where organisation_id = ${organisationId}`.execute(session.db);
      return rows.rows.length;
    });
  }
  return moved;
}
