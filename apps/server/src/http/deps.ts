import type { Kysely } from "kysely";
import type { ServerConfig } from "../config";
import type { Integrations } from "../connectors/connections";
import type { Database } from "../db/database";
import type { Schema } from "../db/schema";
import type { ImportQueue } from "../imports/import-queue";
import type { Mailer } from "../mail/mailer";

/** What the routes need from the outside: the database, configuration and server secrets. */
export interface AppDeps {
  readonly database: Database;
  readonly db: Kysely<Schema>;
  readonly config: ServerConfig;
  readonly xsrfKey: string;
  /** The clock of every expiry, lockout window and TOTP step (tests pass a simulated one). */
  readonly now: () => Date;
  readonly mailer: Mailer;
  /** Import and restore jobs (pg-boss), worked by this server. */
  readonly jobs: ImportQueue;
  /** Connections to accounting packages, their connectors and the sign-in providers' clients. */
  readonly integrations: Integrations;
}
