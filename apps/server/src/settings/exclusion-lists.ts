import { randomUUID } from "node:crypto";
import type {
  ExclusionList,
  ExclusionListSummary,
  LookupSearch,
  UpsertExclusionBody,
} from "@varia/contracts";
import type { Kysely } from "kysely";
import { sql } from "kysely";
import type { Schema } from "../db/schema";
import { AppError, type FieldError } from "../errors";
import { type DimensionSearch, findClientPage, findSkuPage } from "../lines/find-dimension-page";
import { bumpAnalysisVersion } from "./organisation-settings";
import "../db/invoice-schema";
import "../db/settings-schema";

/*
 * Exclusion lists (docs/settings.md): named lists of client and item codes. While a list is active,
 * its clients and items are left out of every number (analytics/cube-cache.ts reads the codes of
 * the active lists into the ids of the cube). Every change bumps the organisation's exclusions
 * version in the same transaction, so every server process sees it.
 */

const iso = (value: unknown) => new Date(value as string).toISOString();

/** The codes on the organisation's active lists. */
export async function activeExclusionCodes(db: Kysely<Schema>, organisationId: string) {
  const active = (table: "exclusion_list_clients" | "exclusion_list_items", column: string) =>
    sql<{
      code: string;
    }>`
    select distinct e.${sql.ref(column)} as code from ${sql.table(table)} e
    join exclusion_lists l on l.organisation_id = e.organisation_id and l.id = e.list_id
    where e.organisation_id = ${organisationId} and l.active`.execute(db);
  const [clients, items] = await Promise.all([
    active("exclusion_list_clients", "client_code"),
    active("exclusion_list_items", "item_code"),
  ]);
  return { clientCodes: clients.rows.map((r) => r.code), itemCodes: items.rows.map((r) => r.code) };
}

/** The organisation's lists by name, with their sizes. */
export async function listExclusionLists(
  db: Kysely<Schema>,
  organisationId: string,
): Promise<ExclusionListSummary[]> {
  const rows = await sql<{
    id: string;
    name: string;
    active: boolean;
    updated_at: unknown;
    clients: number;
    items: number;
  }>`
    select l.id, l.name, l.active, l.updated_at,
      (select count(*) from exclusion_list_clients e
        where e.organisation_id = l.organisation_id and e.list_id = l.id)::int4 as clients,
      (select count(*) from exclusion_list_items e
        where e.organisation_id = l.organisation_id and e.list_id = l.id)::int4 as items
    from exclusion_lists l where l.organisation_id = ${organisationId}
    order by lower(l.name) collate "C", l.id`.execute(db);
  return rows.rows.map((r) => ({
    exclusionHeaderID: r.id,
    name: r.name,
    active: r.active,
    clientCount: Number(r.clients),
    itemCount: Number(r.items),
    updatedAt: iso(r.updated_at),
  }));
}

/** One list with its clients and items (by code; ids and names of the organisation's as they are now). */
export async function findExclusionList(
  db: Kysely<Schema>,
  organisationId: string,
  listId: string,
): Promise<ExclusionList | undefined> {
  const list = await db
    .selectFrom("exclusion_lists")
    .selectAll()
    .where("organisation_id", "=", organisationId)
    .where("id", "=", listId)
    .executeTakeFirst();
  if (!list) return undefined;
  const [clients, items] = await Promise.all([
    db
      .selectFrom("exclusion_list_clients as e")
      .leftJoin("clients as c", (join) =>
        join.onRef("c.organisation_id", "=", "e.organisation_id").onRef("c.code", "=", "e.client_code"),
      )
      .select(["e.client_code as code", "c.id", "c.name"])
      .where("e.organisation_id", "=", organisationId)
      .where("e.list_id", "=", listId)
      .orderBy(sql`e.client_code collate "C"`)
      .execute(),
    db
      .selectFrom("exclusion_list_items as e")
      .leftJoin("items as i", (join) =>
        join.onRef("i.organisation_id", "=", "e.organisation_id").onRef("i.code", "=", "e.item_code"),
      )
      .select(["e.item_code as code", "i.id", "i.name", "i.stock_type"])
      .where("e.organisation_id", "=", organisationId)
      .where("e.list_id", "=", listId)
      .orderBy(sql`e.item_code collate "C"`)
      .execute(),
  ]);
  return {
    exclusionHeaderID: list.id,
    name: list.name,
    active: list.active,
    clients: clients.map((c) => ({
      clientID: c.id === null ? null : String(c.id),
      code: c.code,
      name: c.name ? c.name : c.id === null ? "" : c.code,
    })),
    items: items.map((i) => ({
      stockItemID: i.id === null ? null : String(i.id),
      code: i.code,
      name: i.name ? i.name : i.id === null ? "" : i.code,
      stockType: i.stock_type ?? null,
    })),
    createdAt: iso(list.created_at),
    updatedAt: iso(list.updated_at),
  };
}

type Tx = Kysely<Schema>;

/** The codes of `wanted` that name none of the organisation's clients (or items), with their index. */
async function unknownCodes(
  tx: Tx,
  organisationId: string,
  table: "clients" | "items",
  wanted: readonly string[],
  kept: ReadonlySet<string>,
): Promise<{ index: number; code: string }[]> {
  const fresh = wanted.filter((code) => !kept.has(code));
  const found = new Set<string>();
  for (let i = 0; i < fresh.length; i += 1000) {
    const rows = await tx
      .selectFrom(table)
      .select("code")
      .where("organisation_id", "=", organisationId)
      .where("code", "in", fresh.slice(i, i + 1000))
      .execute();
    for (const row of rows) found.add(row.code);
  }
  return wanted
    .map((code, index) => ({ index, code }))
    .filter(({ code }) => !kept.has(code) && !found.has(code));
}

async function listedCodes(
  tx: Tx,
  organisationId: string,
  listId: string,
): Promise<{ clients: Set<string>; items: Set<string> }> {
  const [clients, items] = [
    await tx
      .selectFrom("exclusion_list_clients")
      .select("client_code as code")
      .where("organisation_id", "=", organisationId)
      .where("list_id", "=", listId)
      .execute(),
    await tx
      .selectFrom("exclusion_list_items")
      .select("item_code as code")
      .where("organisation_id", "=", organisationId)
      .where("list_id", "=", listId)
      .execute(),
  ];
  return { clients: new Set(clients.map((r) => r.code)), items: new Set(items.map((r) => r.code)) };
}

const nameTaken = () =>
  new AppError("Conflict", "An exclusion list with this name exists", [
    { field: "name", message: "An exclusion list with this name exists" },
  ]);

/**
 * Creates a list or replaces one (name, active, entries), in one transaction: a bad code or a
 * name in use changes nothing. A code must name one of the organisation's clients (items), unless
 * the list holds it already (its client may be gone since, by a restore). Answers the list's id.
 */
export async function saveExclusionList(
  db: Kysely<Schema>,
  organisationId: string,
  body: UpsertExclusionBody & { clientCodes: string[]; itemCodes: string[]; active: boolean },
  now: Date,
): Promise<string> {
  const listId = body.exclusionHeaderID ?? randomUUID();
  try {
    await db.transaction().execute(async (tx) => {
      const clash = await tx
        .selectFrom("exclusion_lists")
        .select("id")
        .where("organisation_id", "=", organisationId)
        .where(sql`lower(name)`, "=", body.name.toLowerCase())
        .where("id", "<>", listId)
        .executeTakeFirst();
      if (clash) throw nameTaken();
      let kept = { clients: new Set<string>(), items: new Set<string>() };
      if (body.exclusionHeaderID) {
        const updated = await tx
          .updateTable("exclusion_lists")
          .set({ name: body.name, active: body.active, updated_at: now })
          .where("organisation_id", "=", organisationId)
          .where("id", "=", listId)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) throw new AppError("NotFound", "No such exclusion list");
        kept = await listedCodes(tx, organisationId, listId);
      } else {
        await tx
          .insertInto("exclusion_lists")
          .values({
            organisation_id: organisationId,
            id: listId,
            name: body.name,
            active: body.active,
            created_at: now,
            updated_at: now,
          })
          .execute();
      }
      const errors: FieldError[] = [
        ...(await unknownCodes(tx, organisationId, "clients", body.clientCodes, kept.clients)).map((u) => ({
          field: `clientCodes.${u.index}`,
          message: `no client '${u.code}'`,
        })),
        ...(await unknownCodes(tx, organisationId, "items", body.itemCodes, kept.items)).map((u) => ({
          field: `itemCodes.${u.index}`,
          message: `no item '${u.code}'`,
        })),
      ];
      if (errors.length)
        throw new AppError(
          "BadRequest",
          `Invalid body: ${errors
            .slice(0, 10)
            .map((e) => e.field)
            .join(", ")}${errors.length > 10 ? ", …" : ""}`,
          errors,
        );
      await tx
        .deleteFrom("exclusion_list_clients")
        .where("organisation_id", "=", organisationId)
        .where("list_id", "=", listId)
        .execute();
      await tx
        .deleteFrom("exclusion_list_items")
        .where("organisation_id", "=", organisationId)
        .where("list_id", "=", listId)
        .execute();
      for (let i = 0; i < body.clientCodes.length; i += 1000) {
        await tx
          .insertInto("exclusion_list_clients")
          .values(
            body.clientCodes
              .slice(i, i + 1000)
              .map((code) => ({ organisation_id: organisationId, list_id: listId, client_code: code })),
          )
          .execute();
      }
      for (let i = 0; i < body.itemCodes.length; i += 1000) {
        await tx
          .insertInto("exclusion_list_items")
          .values(
            body.itemCodes
              .slice(i, i + 1000)
              .map((code) => ({ organisation_id: organisationId, list_id: listId, item_code: code })),
          )
          .execute();
      }
      await bumpAnalysisVersion(tx, organisationId, "exclusions");
    });
  } catch (error) {
    // Two lists of one name saved at once: the unique index tells the second.
    if ((error as { code?: string }).code === "23505") throw nameTaken();
    throw error;
  }
  return listId;
}

/** Deletes a list; false when there is none of that id. */
export async function deleteExclusionList(
  db: Kysely<Schema>,
  organisationId: string,
  listId: string,
): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const deleted = await tx
      .deleteFrom("exclusion_lists")
      .where("organisation_id", "=", organisationId)
      .where("id", "=", listId)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) !== 1) return false;
    await bumpAnalysisVersion(tx, organisationId, "exclusions");
    return true;
  });
}

/** The lists that hold each of `codes`. */
async function listsHolding(
  db: Kysely<Schema>,
  organisationId: string,
  table: "exclusion_list_clients" | "exclusion_list_items",
  codes: readonly string[],
): Promise<Map<string, string[]>> {
  const byCode = new Map<string, string[]>();
  if (codes.length === 0) return byCode;
  const column = table === "exclusion_list_clients" ? "client_code" : "item_code";
  const rows = await sql<{ code: string; list_id: string }>`
    select ${sql.ref(column)} as code, list_id from ${sql.table(table)}
    where organisation_id = ${organisationId} and ${sql.ref(column)} in (${sql.join(codes)})
    order by list_id`.execute(db);
  for (const row of rows.rows) byCode.set(row.code, [...(byCode.get(row.code) ?? []), row.list_id]);
  return byCode;
}

/** A page of the organisation's clients to pick from, each with the lists that hold it. */
export function pickClients(db: Kysely<Schema>, organisationId: string, search: LookupSearch) {
  return pickPage(db, organisationId, search, findClientPage, "exclusion_list_clients");
}

/** A page of the organisation's items to pick from, each with the lists that hold it. */
export function pickItems(db: Kysely<Schema>, organisationId: string, search: LookupSearch) {
  return pickPage(db, organisationId, search, findSkuPage, "exclusion_list_items");
}

async function pickPage<Row extends { code: string }>(
  db: Kysely<Schema>,
  organisationId: string,
  search: LookupSearch,
  findPage: (
    db: Kysely<Schema>,
    organisationId: string,
    s: DimensionSearch,
  ) => Promise<{ rows: Row[]; rowCount: number }>,
  entries: "exclusion_list_clients" | "exclusion_list_items",
) {
  const page = await findPage(db, organisationId, {
    search: search.search,
    startRow: search.startRow ?? 1,
    rowLimit: search.rowLimit ?? 100,
  });
  const lists = await listsHolding(
    db,
    organisationId,
    entries,
    page.rows.map((r) => r.code),
  );
  return {
    rows: page.rows.map((r) => ({ ...r, exclusionHeaderIDs: lists.get(r.code) ?? [] })),
    rowCount: page.rowCount,
  };
}
