import { type Kysely, sql, type Transaction } from "kysely";
import type { Schema } from "../db/schema";
import type { InvoiceRow } from "./parse-invoice-rows";

const batchSize = 500;

type Tx = Transaction<Schema> | Kysely<Schema>;

/** Keeps the ids of clients, items and salespeople already stored during one import. */
class Dimensions {
  readonly clients = new Map<string, string>();
  readonly items = new Map<string, string>();
  readonly salespeople = new Map<string, string>();
}

async function upsertDimensions(tx: Tx, organisationId: string, rows: InvoiceRow[], dims: Dimensions) {
  const clients = new Map<string, string>();
  const items = new Map<string, InvoiceRow>();
  const salespeople = new Set<string>();
  for (const row of rows) {
    // Each client and item is written once per import (its first line's name and category win):
    // writing them again for every batch rewrote thousands of rows per batch for nothing.
    if (!dims.clients.has(row.clientCode) && !clients.has(row.clientCode))
      clients.set(row.clientCode, row.clientName);
    if (!dims.items.has(row.itemCode) && !items.has(row.itemCode)) items.set(row.itemCode, row);
    if (row.salesperson && !dims.salespeople.has(row.salesperson)) salespeople.add(row.salesperson);
  }
  if (clients.size) {
    const stored = await tx
      .insertInto("clients")
      .values([...clients].map(([code, name]) => ({ organisation_id: organisationId, code, name })))
      .onConflict((oc) =>
        oc.columns(["organisation_id", "code"]).doUpdateSet({
          name: sql`case when excluded.name <> '' then excluded.name else clients.name end`,
        }),
      )
      .returning(["id", "code"])
      .execute();
    for (const c of stored) dims.clients.set(c.code, String(c.id));
  }
  if (items.size) {
    const stored = await tx
      .insertInto("items")
      .values(
        [...items.values()].map((row) => ({
          organisation_id: organisationId,
          code: row.itemCode,
          name: row.itemName,
          stock_type: row.stockType,
          category: row.category,
        })),
      )
      .onConflict((oc) =>
        oc.columns(["organisation_id", "code"]).doUpdateSet({
          name: sql`case when excluded.name <> '' then excluded.name else items.name end`,
          stock_type: sql`excluded.stock_type`,
          category: sql`coalesce(excluded.category, items.category)`,
        }),
      )
      .returning(["id", "code"])
      .execute();
    for (const i of stored) dims.items.set(i.code, String(i.id));
  }
  if (salespeople.size) {
    const stored = await tx
      .insertInto("salespeople")
      .values([...salespeople].map((name) => ({ organisation_id: organisationId, name })))
      .onConflict((oc) => oc.columns(["organisation_id", "name"]).doUpdateSet({ name: sql`excluded.name` }))
      .returning(["id", "name"])
      .execute();
    for (const s of stored) dims.salespeople.set(s.name, String(s.id));
  }
}

/**
 * Stores checked rows in batches; a line with the same (InvoiceNumber, LineNumber) replaces the
 * stored one, so importing a file twice leaves the same data.
 */
export function createLineWriter(tx: Tx, organisationId: string, jobId: string) {
  const dims = new Dimensions();
  let pending: InvoiceRow[] = [];
  let written = 0;

  async function flush() {
    if (!pending.length) return;
    const rows = pending;
    pending = [];
    await upsertDimensions(tx, organisationId, rows, dims);
    // The last of two lines with the same key in one batch wins, as it would across batches.
    const byKey = new Map(rows.map((r) => [`${r.invoiceNumber}\u0000${r.lineNumber}`, r]));
    await tx
      .insertInto("invoice_lines")
      .values(
        [...byKey.values()].map((row) => ({
          organisation_id: organisationId,
          invoice_number: row.invoiceNumber,
          line_number: row.lineNumber,
          invoice_date: row.invoiceDate,
          client_id: dims.clients.get(row.clientCode)!,
          item_id: dims.items.get(row.itemCode)!,
          salesperson_id: row.salesperson ? dims.salespeople.get(row.salesperson)! : null,
          quantity: row.quantity,
          unit_price: row.unitPrice,
          amount_cents: row.amountCents.toString(),
          cost_cents: row.costCents.toString(),
          service_from: row.serviceFrom,
          service_to: row.serviceTo,
          record_type: row.recordType,
          import_job_id: jobId,
        })),
      )
      .onConflict((oc) =>
        oc.columns(["organisation_id", "invoice_number", "line_number"]).doUpdateSet({
          invoice_date: sql`excluded.invoice_date`,
          client_id: sql`excluded.client_id`,
          item_id: sql`excluded.item_id`,
          salesperson_id: sql`excluded.salesperson_id`,
          quantity: sql`excluded.quantity`,
          unit_price: sql`excluded.unit_price`,
          amount_cents: sql`excluded.amount_cents`,
          cost_cents: sql`excluded.cost_cents`,
          service_from: sql`excluded.service_from`,
          service_to: sql`excluded.service_to`,
          record_type: sql`excluded.record_type`,
          import_job_id: sql`excluded.import_job_id`,
        }),
      )
      .execute();
    written += byKey.size;
  }

  return {
    async add(row: InvoiceRow) {
      pending.push(row);
      if (pending.length >= batchSize) await flush();
    },
    async finish() {
      await flush();
      return written;
    },
  };
}

/**
 * Rebuilds an organisation's monthly cube (DESIGN 7.1): a line sits in its invoice month, or is
 * spread over the whole months from ServiceFrom to ServiceTo, each month with the full quantity and
 * amount / N; leftover cents go one each to the earliest months (cost likewise).
 */
export async function rebuildMonthlyCube(tx: Tx, organisationId: string) {
  await tx.deleteFrom("monthly_cube").where("organisation_id", "=", organisationId).execute();
  await sql`
    insert into monthly_cube
      (organisation_id, record_type, month, client_id, item_id, salesperson_id, quantity, revenue_cents, cost_cents)
    select organisation_id, record_type, month, client_id, item_id, salesperson_id,
           sum(quantity), sum(revenue_cents), sum(cost_cents)
    from (
      select l.organisation_id, l.record_type, l.client_id, l.item_id,
             coalesce(l.salesperson_id, 0) as salesperson_id, l.quantity,
             (date_trunc('month', coalesce(l.service_from, l.invoice_date)) + make_interval(months => k))::date as month,
             l.amount_cents / n + case when k < abs(l.amount_cents % n) then sign(l.amount_cents) else 0 end as revenue_cents,
             l.cost_cents / n + case when k < abs(l.cost_cents % n) then sign(l.cost_cents) else 0 end as cost_cents
      from invoice_lines l
      cross join lateral (
        select case when l.service_from is null then 1
               else (extract(year from l.service_to) * 12 + extract(month from l.service_to))
                  - (extract(year from l.service_from) * 12 + extract(month from l.service_from)) + 1
               end::int as n
      ) months
      cross join lateral generate_series(0, months.n - 1) as k
      where l.organisation_id = ${organisationId}
    ) spread
    group by organisation_id, record_type, month, client_id, item_id, salesperson_id
  `.execute(tx);
}
