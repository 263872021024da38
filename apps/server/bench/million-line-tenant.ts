// A tenant of about a million invoice lines over 36 months (2023-01 .. 2025-12), written with
// set-based SQL straight into the tables (the import path has its own benchmark): clients with
// staggered starts and churn, six services each (one added late, one removed early), seat changes,
// hourly usage, a price rise in the third year, hand-overs between salespeople, and ad-hoc products.
// The monthly cube is the lines grouped by month (no service periods here).
import { type Kysely, sql } from "kysely";
import type { Schema } from "../src/db/schema";
import { linePartition } from "../src/imports/store-invoice-lines";

export interface TenantShape {
  clients: number;
}

/** About 1,000,000 lines with the default of 9,300 clients. */
export async function writeMillionLineTenant(
  db: Kysely<Schema>,
  organisationId: string,
  shape: TenantShape = { clients: 9300 },
): Promise<{ lines: number; cubeCells: number }> {
  const org = organisationId;
  await sql`insert into clients (organisation_id, code, name)
    select ${org}::uuid, 'C' || lpad(g::text, 5, '0'), 'Client ' || g from generate_series(1, ${shape.clients}) g`.execute(
    db,
  );
  await sql`insert into items (organisation_id, code, name, stock_type, category)
    select ${org}::uuid, 'I' || lpad(g::text, 2, '0'), 'Service ' || g,
      case when g % 8 = 0 then 'Product' when g % 5 = 0 then 'Hourly' else 'Subscription' end,
      case when g % 8 = 0 then 'Adhoc' end
    from generate_series(1, 40) g`.execute(db);
  await sql`insert into salespeople (organisation_id, name)
    select ${org}::uuid, 'Rep ' || chr(64 + g) from generate_series(1, 10) g`.execute(db);
  // The lines into a table of the organisation's, indexed after them, then its partition, as a first
  // import writes them (docs/storage.md, "A first import: a table of its own, indexed after the load").
  await sql`select create_invoice_line_table(${org}::uuid)`.execute(db);
  await sql`
    with c as (
      select g as n, h.s,
        case when abs(hashint4(g + 1)) % 3 = 0 then least(35, h.s + 3 + abs(hashint4(g + 2)) % 24) else 35 end as e,
        case when abs(hashint4(g + 3)) % 3 = 0 then h.s + 1 + abs(hashint4(g + 4)) % 12 else 99 end as seats_at,
        case when abs(hashint4(g + 5)) % 7 = 0 then 6 + abs(hashint4(g + 6)) % 24 else 99 end as handover_at
      from generate_series(1, ${shape.clients}) g, lateral (select abs(hashint4(g)) % 30 as s) h),
    ids as (
      select (select min(id) from clients where organisation_id = ${org}) - 1 as client0,
        (select min(id) from items where organisation_id = ${org}) - 1 as item0,
        (select min(id) from salespeople where organisation_id = ${org}) - 1 as rep0),
    lines as (
      select c.n, k, m, (c.n * 3 + k * 7) % 40 + 1 as item,
        case when ((c.n * 3 + k * 7) % 40 + 1) % 5 = 0 then 1 + abs(hashint4(c.n * 64 + m)) % 20
          else 1 + c.n % 10 + case when m >= c.seats_at then 1 + c.n % 3 else 0 end end as qty,
        case when m >= c.handover_at then 1 + (c.n + 1) % 10 else 1 + c.n % 10 end as rep
      from c, generate_series(0, 5) k, generate_series(0, 35) m
      where m between c.s + case when k = 2 then 3 else 0 end and c.e - case when k = 5 then 2 else 0 end)
    insert into ${sql.table(linePartition(org))} (organisation_id, invoice_number, line_number, invoice_date, client_id, item_id,
      salesperson_id, quantity, unit_price, amount_cents, cost_cents, record_type)
    select ${org}::uuid, 'INV-' || n || '-' || m, k + 1, make_date(2023 + m / 12, m % 12 + 1, 1),
      ids.client0 + n, ids.item0 + item, ids.rep0 + rep, qty,
      (1000 + item * 37 + case when m >= 24 then 150 else 0 end) / 100.0,
      qty * (1000 + item * 37 + case when m >= 24 then 150 else 0 end),
      qty * (1000 + item * 37) * 2 / 5, 'Actual'
    from lines, ids`.execute(db);
  await sql`select attach_invoice_line_table(${org}::uuid)`.execute(db);
  await sql`insert into monthly_cube (organisation_id, record_type, month, client_id, item_id, salesperson_id,
      quantity, revenue_cents, cost_cents, line_count)
    select organisation_id, record_type, date_trunc('month', invoice_date)::date, client_id, item_id,
      coalesce(salesperson_id, 0), sum(quantity), sum(amount_cents), sum(cost_cents), count(*)
    from invoice_lines where organisation_id = ${org}
    group by organisation_id, record_type, date_trunc('month', invoice_date), client_id, item_id, coalesce(salesperson_id, 0)`.execute(
    db,
  );
  const counts = await sql<{ lines: string; cells: string }>`
    select (select count(*) from invoice_lines where organisation_id = ${org}) as lines,
      (select count(*) from monthly_cube where organisation_id = ${org}) as cells`.execute(db);
  return { lines: Number(counts.rows[0]!.lines), cubeCells: Number(counts.rows[0]!.cells) };
}
