import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface OrganisationsTable {
  id: string;
  tenant: string;
  name: string;
  currency_code: Generated<string>;
  has_margins: Generated<boolean>;
  is_internal: Generated<boolean>;
  sign_up_step: string | null;
  mfa_setting: Generated<"off" | "optional" | "required">;
  default_category: Generated<"Recurring" | "Adhoc" | "Exclude">;
  is_demo: Generated<boolean>;
  created_at: Generated<Timestamp>;
}

export interface UsersTable {
  organisation_id: string;
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  is_admin: Generated<boolean>;
  mfa_secret: string | null;
  mfa_enabled: Generated<boolean>;
  disabled_at: Timestamp | null;
  created_at: Generated<Timestamp>;
}

export interface SessionsTable {
  id_hash: string;
  organisation_id: string;
  user_id: string;
  login_method: string;
  stay_logged_in: boolean;
  /** The sign-in: a session's lifetime counts from it (the server's clock, not the database's). */
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
}

export interface ApiTokensTable {
  organisation_id: string;
  id: string;
  user_id: string;
  name: string;
  token_hash: string;
  token_prefix: string;
  created_at: Generated<Timestamp>;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface TermsVersionsTable {
  id: Generated<number>;
  effective_at: Timestamp;
  body: string;
}

export interface TermsAcceptancesTable {
  organisation_id: string;
  user_id: string;
  terms_version_id: number;
  accepted_at: Generated<Timestamp>;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
}

export interface SchemaMigrationsTable {
  version: number;
  name: string;
  applied_at: Generated<Timestamp>;
}

export interface Schema {
  organisations: OrganisationsTable;
  users: UsersTable;
  sessions: SessionsTable;
  api_tokens: ApiTokensTable;
  terms_versions: TermsVersionsTable;
  terms_acceptances: TermsAcceptancesTable;
  server_secrets: ServerSecretsTable;
  schema_migrations: SchemaMigrationsTable;
}
