// The two-period decomposition of docs/methodology.md ("Classification of changes") (organisation view, no salesperson filter) as one
// SQL query over the monthly cube: the benchmark's yardstick for the engine, and a second,
// independent implementation whose numbers must agree with it to the cent.
import { type Kysely, sql } from "kysely";
import type { Schema } from "../src/db/schema";

export type SqlByType = Record<string, { positive: number; negative: number }>;

export async function decompositionBySql(
  db: Kysely<Schema>,
  organisationId: string,
  from: string,
  to: string,
  dataType: "Revenue" | "Margin",
): Promise<{ totalFrom: number; totalTo: number; byType: SqlByType }> {
  const margin = dataType === "Margin";
  const result = await sql<{ type: string; positive: string | null; negative: string | null }>`
    with cells as (
      select c.client_id, c.item_id, i.stock_type,
        coalesce(sum(c.revenue_cents) filter (where c.month = ${from}::date), 0) as rf,
        coalesce(sum(c.revenue_cents) filter (where c.month = ${to}::date), 0) as rt,
        coalesce(sum(c.revenue_cents - case when ${margin} then c.cost_cents else 0 end)
          filter (where c.month = ${from}::date), 0) as vf,
        coalesce(sum(c.revenue_cents - case when ${margin} then c.cost_cents else 0 end)
          filter (where c.month = ${to}::date), 0) as vt,
        coalesce(sum(c.quantity * 10000) filter (where c.month = ${from}::date), 0) as qf,
        coalesce(sum(c.quantity * 10000) filter (where c.month = ${to}::date), 0) as qt
      from monthly_cube c
      join items i on i.organisation_id = c.organisation_id and i.id = c.item_id
      join organisations o on o.id = c.organisation_id
      where c.organisation_id = ${organisationId} and c.record_type = 'Actual'
        and c.month in (${from}::date, ${to}::date)
        and coalesce(i.category, o.default_category) = 'Recurring'
      group by c.client_id, c.item_id, i.stock_type),
    activity as (
      select client_id, sum(rf) > 0 as af, sum(rt) > 0 as at from cells group by client_id),
    kinds as (
      select x.*, x.vt - x.vf as d,
        case when a.af <> a.at then 'Client' when not a.af then 'Price'
          when (x.rf > 0) <> (x.rt > 0) then 'Service' when not x.rf > 0 then 'Price'
          when x.qf > 0 and x.qt > 0 then 'Quantity' else 'Price' end as kind
      from cells x join activity a using (client_id)),
    quotients as (
      select k.*, div((k.qt - k.qf) * k.vf, nullif(k.qf, 0)) as q, (k.qt - k.qf) * k.vf as n from kinds k),
    effects as (
      -- round half to even of n / qf (qf > 0): the truncated quotient, moved away from zero when the
      -- remainder is over a half, or exactly a half and the quotient odd
      select *, case when kind <> 'Quantity' then 0
        when 2 * abs(n - q * qf) > qf or (2 * abs(n - q * qf) = qf and mod(q, 2) <> 0) then q + sign(n)
        else q end as effect
      from quotients),
    parts as (
      select 'Client' as type, sum(d) as v from effects where kind = 'Client' group by client_id
      union all select 'Service', d from effects where kind = 'Service'
      union all select 'Price', d - effect from effects where kind in ('Price', 'Quantity')
      union all select case when stock_type = 'Hourly' then 'Usage' else 'Volume' end, effect
        from effects where kind = 'Quantity')
    select type, sum(v) filter (where v > 0) as positive, sum(v) filter (where v < 0) as negative
    from parts group by type
    union all select 'total', sum(vf), sum(vt) from cells`.execute(db);
  const byType: SqlByType = {};
  let totalFrom = 0;
  let totalTo = 0;
  for (const row of result.rows) {
    if (row.type === "total") {
      totalFrom = Number(row.positive ?? 0);
      totalTo = Number(row.negative ?? 0);
    } else byType[row.type] = { positive: Number(row.positive ?? 0), negative: Number(row.negative ?? 0) };
  }
  return { totalFrom, totalTo, byType };
}
