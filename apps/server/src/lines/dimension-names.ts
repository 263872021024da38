import { type Kysely, sql } from "kysely";
import type { Schema } from "../db/schema";

export interface DimensionNames {
  clients: Map<number, { code: string; name: string }>;
  items: Map<number, { code: string; name: string; stockType: string; category: string }>;
  salespeople: Map<number, string>;
}

/** The organisation's clients, items (category: its own or the organisation's default) and salespeople by id. */
export async function readDimensionNames(
  db: Kysely<Schema>,
  organisationId: string,
): Promise<DimensionNames> {
  const clients = await sql<{ id: number; code: string; name: string }>`
    select id::float8 as id, code, name from clients where organisation_id = ${organisationId}`.execute(db);
  const items = await sql<{ id: number; code: string; name: string; stockType: string; category: string }>`
    select i.id::float8 as id, i.code, i.name, i.stock_type as "stockType",
           coalesce(i.category, o.default_category) as category
    from items i join organisations o on o.id = i.organisation_id
    where i.organisation_id = ${organisationId}`.execute(db);
  const salespeople = await sql<{ id: number; name: string }>`
    select id::float8 as id, name from salespeople where organisation_id = ${organisationId}`.execute(db);
  return {
    clients: new Map(clients.rows.map((c) => [c.id, { code: c.code, name: c.name }])),
    items: new Map(items.rows.map(({ id, ...item }) => [id, item])),
    salespeople: new Map(salespeople.rows.map((s) => [s.id, s.name])),
  };
}
