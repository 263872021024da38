import type { Category, CubeClient, CubeItem, CubeSalesperson, StockType } from "@varia/variance";
import { type Kysely, sql } from "kysely";
import type { Schema } from "../db/schema";

/** An organisation's clients, items (category: its own or the organisation's default) and salespeople. */
export interface Dimensions {
  clients: CubeClient[];
  items: CubeItem[];
  salespeople: CubeSalesperson[];
}

/** The same by id, as a `Cube` holds them (a cube serves where names are needed). */
export interface DimensionNames {
  readonly clients: ReadonlyMap<number, CubeClient>;
  readonly items: ReadonlyMap<number, CubeItem>;
  readonly salespeople: ReadonlyMap<number, CubeSalesperson>;
}

/**
 * The name a client or item is shown by: its own, or its code when it has none (a file may leave
 * ClientName and ItemName empty, as the QuickBooks sample's customers are). The stored name stays
 * empty, so that a later file can give one.
 * (docs/import.md, "Clients, items and salespeople")
 */
export function namedByCode(name: string | null | undefined, code: string): string {
  return name || code;
}

/** The SQL of `namedByCode` for a table's (or alias's) `name` and `code`. */
export const namedByCodeSql = (table?: string) =>
  sql<string>`coalesce(nullif(${sql.ref(table ? `${table}.name` : "name")}, ''), ${sql.ref(table ? `${table}.code` : "code")})`;

/** Reads an organisation's clients, items and salespeople (the cube's and the line readers'). */
export async function readDimensions(db: Kysely<Schema>, organisationId: string): Promise<Dimensions> {
  const [clients, items, salespeople] = await Promise.all([
    sql<CubeClient>`
      select id::int4 as id, code, ${namedByCodeSql()} as name from clients
      where organisation_id = ${organisationId}`.execute(db),
    sql<{ id: number; code: string; name: string; stockType: StockType; category: Category }>`
      select i.id::int4 as id, i.code, ${namedByCodeSql("i")} as name, i.stock_type as "stockType",
        coalesce(i.category, o.default_category) as category
      from items i join organisations o on o.id = i.organisation_id
      where i.organisation_id = ${organisationId}`.execute(db),
    sql<CubeSalesperson>`
      select id::int4 as id, name from salespeople where organisation_id = ${organisationId}`.execute(db),
  ]);
  return { clients: clients.rows, items: items.rows, salespeople: salespeople.rows };
}

/** Dimensions by id. */
export function dimensionNames(dimensions: Dimensions): DimensionNames {
  const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((row) => [row.id, row]));
  return {
    clients: byId(dimensions.clients),
    items: byId(dimensions.items),
    salespeople: byId(dimensions.salespeople),
  };
}
