import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** The tables of migration 020 (accounts and security), merged into the one `Schema`. */
declare module "./schema" {
  interface UsersTable {
    mfa_last_step: ColumnType<string | null, number | string | null | undefined, number | string | null>;
    mfa_skipped_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  }
  interface ApiTokensTable {
    scoped: ColumnType<boolean, boolean | undefined, boolean>;
  }
  interface SessionsTable {
    host_tenant: ColumnType<string | null, string | null | undefined, string | null>;
  }
  interface Schema {
    roles: RolesTable;
    role_abilities: AbilityRowTable & { role_id: string };
    user_roles: UserRolesTable;
    api_token_abilities: AbilityRowTable & { token_id: string };
    auth_events: AuthEventsTable;
    password_tokens: PasswordTokensTable;
    demo_requests: DemoRequestsTable;
    contact_messages: ContactMessagesTable;
    user_identities: UserIdentitiesTable;
    sso_states: SsoStatesTable;
  }
}

export interface RolesTable {
  organisation_id: string;
  id: string;
  name: string;
  description: Generated<string>;
  created_at: Generated<Timestamp>;
}

export interface AbilityRowTable {
  organisation_id: string;
  module_system_name: string;
  feature_system_name: string;
  ability_system_name: string;
}

export interface UserRolesTable {
  organisation_id: string;
  user_id: string;
  role_id: string;
}

export interface AuthEventsTable {
  key_hash: string;
  at: Timestamp;
}

export interface PasswordTokensTable {
  organisation_id: string;
  id: string;
  user_id: string;
  kind: "reset" | "set";
  secret_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Generated<Timestamp>;
}

export interface DemoRequestsTable {
  id: string;
  email: string;
  name: string;
  phone_detected: boolean;
  code_hash: string;
  attempts: Generated<number>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Generated<Timestamp>;
}

export interface ContactMessagesTable {
  id: string;
  organisation_id: string | null;
  user_id: string | null;
  email: string;
  message: string;
  created_at: Generated<Timestamp>;
}

export interface UserIdentitiesTable {
  organisation_id: string;
  user_id: string;
  issuer: string;
  subject: string;
  email: string | null;
  created_at: Generated<Timestamp>;
}

export interface SsoStatesTable {
  state_hash: string;
  provider: string;
  purpose: "signIn" | "signUp" | "link" | "handoff" | "connect";
  tenant: string | null;
  code_verifier: string;
  nonce: string;
  link_organisation_id: string | null;
  link_user_id: string | null;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}
