import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { Schema } from "../db/schema";

/**
 * Tables never copied into a demo visitor's organisation: people, their credentials and the
 * traces of their sign-ins. Any table with a foreign key to `users` is left out as well.
 */
const personalTables = new Set([
  "organisations",
  "users",
  "sessions",
  "api_tokens",
  "api_token_abilities",
  "terms_acceptances",
  "password_tokens",
  "user_identities",
  "user_roles",
  "contact_messages",
]);

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

interface ColumnRow {
  table_name: string;
  column_name: string;
  /** Filled by a sequence or identity: a new value for the organisation row. */
  generated: boolean;
  /** Computed by the database: never written. */
  computed: boolean;
}

/**
 * Copies an organisation and whatever data it holds into a new organisation, in one transaction:
 * the organisation row, then every table of the schema with an `organisation_id` column (in
 * foreign-key order), with `organisation_id` replaced. Rows keep their ids: every key includes
 * `organisation_id` (DESIGN.md 4). Serial or identity columns get new values.
 */
export async function copyOrganisation(
  db: Kysely<Schema>,
  sourceId: string,
  target: { tenant: string; isDemo: boolean; createdAt: Date },
): Promise<string> {
  const newId = randomUUID();
  await db.transaction().execute(async (tx) => {
    const columns = (
      await sql<ColumnRow>`
        select table_name, column_name,
               (is_identity = 'YES' or coalesce(column_default, '') like 'nextval(%' or is_generated = 'ALWAYS') as generated,
               (is_generated = 'ALWAYS' or identity_generation = 'ALWAYS') as computed
        from information_schema.columns
        where table_schema = current_schema()
        order by table_name, ordinal_position`.execute(tx)
    ).rows;
    const byTable = new Map<string, ColumnRow[]>();
    for (const column of columns)
      byTable.set(column.table_name, [...(byTable.get(column.table_name) ?? []), column]);

    const foreignKeys = (
      await sql<{ child: string; parent: string }>`
        select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent
        from pg_constraint c
        join pg_namespace n on n.oid = c.connamespace
        where c.contype = 'f' and n.nspname = current_schema()`.execute(tx)
    ).rows.map((fk) => ({ child: fk.child.replace(/^"|"$/g, ""), parent: fk.parent.replace(/^"|"$/g, "") }));
    const referencesUsers = new Set(foreignKeys.filter((fk) => fk.parent === "users").map((fk) => fk.child));

    const organisationColumns = byTable.get("organisations") ?? [];
    const replaced: Record<string, ReturnType<typeof sql>> = {
      id: sql`${newId}::uuid`,
      tenant: sql`${target.tenant}::text`,
      is_demo: sql`${target.isDemo}::boolean`,
      created_at: sql`${target.createdAt}::timestamptz`,
    };
    const orgNames = organisationColumns.filter((c) => !c.generated).map((c) => c.column_name);
    await sql`insert into organisations (${sql.join(orgNames.map((n) => sql.raw(quote(n))))})
      select ${sql.join(orgNames.map((n) => replaced[n] ?? sql.raw(quote(n))))}
      from organisations where id = ${sourceId}`.execute(tx);

    const tables = [...byTable.entries()]
      .filter(
        ([table, cols]) =>
          !personalTables.has(table) &&
          !referencesUsers.has(table) &&
          cols.some((c) => c.column_name === "organisation_id"),
      )
      .map(([table]) => table);
    // Parents before children.
    const ordered: string[] = [];
    const visit = (table: string, path: Set<string>) => {
      if (ordered.includes(table) || path.has(table)) return;
      path.add(table);
      for (const fk of foreignKeys)
        if (fk.child === table && fk.parent !== table && tables.includes(fk.parent)) visit(fk.parent, path);
      ordered.push(table);
    };
    for (const table of tables) visit(table, new Set());

    for (const table of ordered) {
      // Sequence-filled ids are copied as they are: every key includes organisation_id, and the
      // copied rows refer to each other by them (invoice lines to clients and items).
      const names = (byTable.get(table) ?? []).filter((c) => !c.computed).map((c) => c.column_name);
      await sql`insert into ${sql.raw(quote(table))} (${sql.join(names.map((n) => sql.raw(quote(n))))})
        select ${sql.join(names.map((n) => (n === "organisation_id" ? sql`${newId}::uuid` : sql.raw(quote(n)))))}
        from ${sql.raw(quote(table))} where organisation_id = ${sourceId}`.execute(tx);
    }
  });
  return newId;
}
