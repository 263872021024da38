import type { Kysely } from "kysely";
import type { Schema } from "../db/schema";
import { randomSecret } from "./secret-tokens";

/** A server-wide secret kept in the database, created on first use (shared by every instance). */
export async function getServerSecret(db: Kysely<Schema>, name: string): Promise<string> {
  await db
    .insertInto("server_secrets")
    .values({ name, value: randomSecret(32) })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const row = await db
    .selectFrom("server_secrets")
    .select("value")
    .where("name", "=", name)
    .executeTakeFirstOrThrow();
  return row.value;
}
