import type { Kysely } from "kysely";
import { sql } from "kysely";
import type { Schema } from "../db/schema";
import "../db/invoice-schema";
import { namedByCodeSql } from "./dimension-names";

export interface DimensionSearch {
  search?: string | null | undefined;
  /** 1-based. */
  startRow: number;
  rowLimit: number;
}

/** A LIKE pattern that finds the text anywhere, with the pattern characters taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const searchText = (s: DimensionSearch) => s.search?.trim() ?? "";

/**
 * The caller's clients whose code or name contains the search text, by name then code. Names are
 * ordered by code point (collation "C"), so every database orders them alike; one without a name is
 * named (and ordered) by its code.
 */
export async function findClientPage(db: Kysely<Schema>, organisationId: string, s: DimensionSearch) {
  let q = db.selectFrom("clients").where("organisation_id", "=", organisationId);
  const text = searchText(s);
  if (text) {
    const pattern = containsPattern(text);
    q = q.where((eb) => eb.or([eb("code", "ilike", pattern), eb("name", "ilike", pattern)]));
  }
  const [rows, count] = await Promise.all([
    q
      .select(["id", "code", namedByCodeSql().as("name")])
      .orderBy(sql`lower(${namedByCodeSql()}) collate "C"`)
      .orderBy(sql`code collate "C"`)
      .offset(s.startRow - 1)
      .limit(s.rowLimit)
      .execute(),
    q.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((r) => ({ clientID: String(r.id), code: r.code, name: r.name })),
    rowCount: Number(count.n),
  };
}

/** The caller's items whose code or name contains the search text, by name then code. */
export async function findSkuPage(db: Kysely<Schema>, organisationId: string, s: DimensionSearch) {
  let q = db.selectFrom("items").where("organisation_id", "=", organisationId);
  const text = searchText(s);
  if (text) {
    const pattern = containsPattern(text);
    q = q.where((eb) => eb.or([eb("code", "ilike", pattern), eb("name", "ilike", pattern)]));
  }
  const [rows, count] = await Promise.all([
    q
      .select(["id", "code", namedByCodeSql().as("name"), "stock_type"])
      .orderBy(sql`lower(${namedByCodeSql()}) collate "C"`)
      .orderBy(sql`code collate "C"`)
      .offset(s.startRow - 1)
      .limit(s.rowLimit)
      .execute(),
    q.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((r) => ({
      stockItemID: String(r.id),
      code: r.code,
      name: r.name,
      stockType: r.stock_type,
    })),
    rowCount: Number(count.n),
  };
}

/** The caller's salespeople whose name contains the search text, by name. */
export async function findSalespersonPage(db: Kysely<Schema>, organisationId: string, s: DimensionSearch) {
  let q = db.selectFrom("salespeople").where("organisation_id", "=", organisationId);
  const text = searchText(s);
  if (text) q = q.where("name", "ilike", containsPattern(text));
  const [rows, count] = await Promise.all([
    q
      .select(["id", "name"])
      .orderBy(sql`lower(name) collate "C"`)
      .orderBy("id")
      .offset(s.startRow - 1)
      .limit(s.rowLimit)
      .execute(),
    q.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((r) => ({ salespersonID: String(r.id), name: r.name })),
    rowCount: Number(count.n),
  };
}
