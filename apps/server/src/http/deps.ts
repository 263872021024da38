import type { Kysely } from "kysely";
import type { ServerConfig } from "../config";
import type { Database } from "../db/database";
import type { Schema } from "../db/schema";

/** What the routes need from the outside: the database, configuration and server secrets. */
export interface AppDeps {
  readonly database: Database;
  readonly db: Kysely<Schema>;
  readonly config: ServerConfig;
  readonly xsrfKey: string;
}
