-- Organisations (tenants), users, sessions, API tokens, terms of service, server secrets.
-- Every tenant-owned row carries organisation_id, and every unique and foreign key includes it.

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

insert into terms_versions (effective_at, body)
values ('2026-01-01T00:00:00Z', 'Varia Terms of Service and Privacy Policy, version 2026-01.');
