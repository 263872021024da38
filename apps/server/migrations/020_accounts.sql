-- Accounts and security (issue 5): roles and abilities, scoped API tokens, throttling, MFA state,
-- password tokens, demo requests, single sign-on identities and states.
-- Every tenant-owned row carries organisation_id, and every unique and foreign key includes it.

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

-- MFA: the last accepted TOTP time step (a code is accepted once); a skipped optional enrolment.
alter table users add column mfa_last_step bigint;
alter table users add column mfa_skipped_at timestamptz;

-- A session may be valid on another tenant's host than its organisation's (a demo visitor's copy
-- of the demo organisation is used on the demo host).
alter table sessions add column host_tenant text;

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

-- Single sign-on: users are keyed by (issuer, subject), never by e-mail.
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
  purpose text not null check (purpose in ('signIn', 'signUp', 'link')),
  tenant text,
  code_verifier text not null,
  nonce text not null,
  link_organisation_id uuid,
  link_user_id uuid,
  expires_at timestamptz not null,
  used_at timestamptz
);
