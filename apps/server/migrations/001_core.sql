-- Organisations (tenants), users, sessions, API tokens, terms of service, server secrets; accounts
-- and security: roles and abilities, scoped API tokens, throttling, MFA state, password tokens,
-- demo requests, single sign-on identities and states.
-- Every tenant-owned row carries organisation_id, and every unique and foreign key includes it.
-- The migrations were folded into this set before the first release (docs/storage.md): a data
-- directory written by an older set is refused at start (src/db/migrate.ts).

create table organisations (
  id uuid primary key,
  tenant text not null unique check (tenant ~ '^[a-z0-9][a-z0-9-]{0,62}$' and tenant <> 'app'),
  name text not null check (length(name) between 1 and 200),
  currency_code text not null default 'USD' check (currency_code ~ '^[A-Z]{3}$'),
  has_margins boolean not null default true,
  is_internal boolean not null default false,
  sign_up_step text check (sign_up_step in ('Welcome', 'Data', 'Configure')),
  mfa_setting text not null default 'optional' check (mfa_setting in ('off', 'optional', 'required')),
  default_category text not null default 'Recurring' check (default_category in ('Recurring', 'Adhoc', 'Exclude')),
  is_demo boolean not null default false,
  created_at timestamptz not null default now()
);

create table users (
  organisation_id uuid not null references organisations (id) on delete cascade,
  id uuid not null,
  email text not null check (length(email) between 3 and 320),
  name text not null,
  password_hash text,
  is_admin boolean not null default false,
  mfa_secret text,
  mfa_enabled boolean not null default false,
  -- MFA: the last accepted TOTP time step (a code is accepted once); a skipped optional enrolment.
  mfa_last_step bigint,
  mfa_skipped_at timestamptz,
  disabled_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (organisation_id, id)
);
create unique index users_email_key on users (organisation_id, lower(email));

create table sessions (
  id_hash text primary key,
  organisation_id uuid not null,
  user_id uuid not null,
  login_method text not null,
  stay_logged_in boolean not null,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null,
  expires_at timestamptz not null,
  -- A session may be valid on another tenant's host than its organisation's (a demo visitor's copy
  -- of the demo organisation is used on the demo host).
  host_tenant text,
  foreign key (organisation_id, user_id) references users (organisation_id, id) on delete cascade
);
create index sessions_user on sessions (organisation_id, user_id);

create table api_tokens (
  organisation_id uuid not null,
  id uuid not null,
  user_id uuid not null,
  name text not null check (length(name) between 1 and 100),
  token_hash text not null unique,
  token_prefix text not null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz,
  -- false: the token holds its user's abilities; true: exactly those in api_token_abilities.
  scoped boolean not null default false,
  primary key (organisation_id, id),
  foreign key (organisation_id, user_id) references users (organisation_id, id) on delete cascade
);

create table terms_versions (
  id serial primary key,
  effective_at timestamptz not null,
  body text not null
);

create table terms_acceptances (
  organisation_id uuid not null,
  user_id uuid not null,
  terms_version_id integer not null references terms_versions (id),
  accepted_at timestamptz not null default now(),
  primary key (organisation_id, user_id, terms_version_id),
  foreign key (organisation_id, user_id) references users (organisation_id, id) on delete cascade
);

create table server_secrets (
  name text primary key,
  value text not null
);

create table roles (
  organisation_id uuid not null references organisations (id) on delete cascade,
  id uuid not null,
  name text not null check (length(name) between 1 and 100),
  description text not null default '' check (length(description) <= 1000),
  created_at timestamptz not null default now(),
  primary key (organisation_id, id)
);
create unique index roles_name_key on roles (organisation_id, lower(name));

create table role_abilities (
  organisation_id uuid not null,
  role_id uuid not null,
  module_system_name text not null,
  feature_system_name text not null,
  ability_system_name text not null,
  primary key (organisation_id, role_id, module_system_name, feature_system_name, ability_system_name),
  foreign key (organisation_id, role_id) references roles (organisation_id, id) on delete cascade
);

create table user_roles (
  organisation_id uuid not null,
  user_id uuid not null,
  role_id uuid not null,
  primary key (organisation_id, user_id, role_id),
  foreign key (organisation_id, user_id) references users (organisation_id, id) on delete cascade,
  foreign key (organisation_id, role_id) references roles (organisation_id, id) on delete cascade
);

-- The abilities an API token is scoped to (it never holds more than its user does).
create table api_token_abilities (
  organisation_id uuid not null,
  token_id uuid not null,
  module_system_name text not null,
  feature_system_name text not null,
  ability_system_name text not null,
  primary key (organisation_id, token_id, module_system_name, feature_system_name, ability_system_name),
  foreign key (organisation_id, token_id) references api_tokens (organisation_id, id) on delete cascade
);

-- Failed sign-ins, failed codes and rate-limited calls, by a hashed key (never an e-mail in clear),
-- in the database so that the limits hold across server instances.
create table auth_events (
  key_hash text not null,
  at timestamptz not null
);
create index auth_events_key on auth_events (key_hash, at);



create table password_tokens (
  organisation_id uuid not null,
  id uuid not null,
  user_id uuid not null,
  kind text not null check (kind in ('reset', 'set')),
  secret_hash text not null,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (organisation_id, id),
  foreign key (organisation_id, user_id) references users (organisation_id, id) on delete cascade
);
create index password_tokens_user on password_tokens (organisation_id, user_id);

-- Demo visitors are not tenants yet: their requests are not tenant-owned.
create table demo_requests (
  id uuid primary key,
  email text not null,
  name text not null,
  phone_detected boolean not null default false,
  code_hash text not null,
  attempts integer not null default 0,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index demo_requests_email on demo_requests (lower(email), created_at);

create table contact_messages (
  id uuid primary key,
  organisation_id uuid references organisations (id) on delete set null,
  user_id uuid,
  email text not null,
  message text not null check (length(message) between 1 and 5000),
  created_at timestamptz not null default now()
);

-- Single sign-on: users are keyed by (issuer, subject), never by e-mail. Single sign-up ends on the
-- app host; the new organisation's site takes over with a one-time handoff (purpose 'handoff').
create table user_identities (
  organisation_id uuid not null,
  user_id uuid not null,
  issuer text not null,
  subject text not null,
  email text,
  created_at timestamptz not null default now(),
  primary key (organisation_id, issuer, subject),
  foreign key (organisation_id, user_id) references users (organisation_id, id) on delete cascade
);

create table sso_states (
  state_hash text primary key,
  provider text not null,
  purpose text not null check (purpose in ('signIn', 'signUp', 'link', 'handoff')),
  tenant text,
  code_verifier text not null,
  nonce text not null,
  link_organisation_id uuid,
  link_user_id uuid,
  expires_at timestamptz not null,
  used_at timestamptz
);

insert into terms_versions (effective_at, body)
values ('2026-01-01T00:00:00Z', 'Varia Terms of Service and Privacy Policy, version 2026-01.');
