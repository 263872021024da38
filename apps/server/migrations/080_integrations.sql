-- Connections to accounting packages, their data sources and import schedules (docs/integration.md).
-- Every tenant-owned row carries organisation_id, and every unique and foreign key includes it.

-- One authorisation at a provider (Intuit for QuickBooks, Xero), kept from the sign-up. The tokens
-- are stored encrypted (AES-256-GCM, docs/security.md, "Provider tokens"), never in the clear.
create table connections (
  organisation_id uuid not null references organisations (id) on delete cascade,
  id uuid not null,
  integration_type text not null check (integration_type in ('Quickbooks', 'Xero')),
  issuer text not null,
  subject text not null,
  access_token_encrypted text not null,
  refresh_token_encrypted text,
  access_expires_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (organisation_id, id),
  unique (organisation_id, issuer, subject)
);

-- A company (QuickBooks realm) or organisation (Xero tenant) a connection reaches.
create table data_sources (
  organisation_id uuid not null,
  id uuid not null,
  connection_id uuid not null,
  external_id text not null check (length(external_id) between 1 and 200),
  name text not null,
  last_job_id uuid,
  created_at timestamptz not null default now(),
  primary key (organisation_id, id),
  unique (organisation_id, connection_id, external_id),
  foreign key (organisation_id, connection_id) references connections (organisation_id, id) on delete cascade
);

-- A data source's import schedule, as the wizard sent it; pg-boss holds the cron job made
-- from it (imports/import-schedules.ts), keyed by the data source's id.
create table import_schedules (
  organisation_id uuid not null,
  data_source_id uuid not null,
  time_zone text not null check (length(time_zone) between 1 and 64),
  country text not null check (country in ('NewZealand', 'UnitedKingdom', 'UnitedStates', 'Canada', 'Australia')),
  interval text not null check (interval in ('Monthly', 'Weekly', 'Daily', 'Hourly')),
  day_of_month integer check (day_of_month between 1 and 28),
  day_of_week text check (day_of_week in ('Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday')),
  hour integer not null check (hour between 1 and 12),
  minute integer not null check (minute between 0 and 59),
  am_pm text not null check (am_pm in ('AM', 'PM')),
  updated_at timestamptz not null default now(),
  primary key (organisation_id, data_source_id),
  foreign key (organisation_id, data_source_id) references data_sources (organisation_id, id) on delete cascade
);

-- An import read from a data source (kind 'Connector'): its file is written when the job runs.
alter table import_jobs drop constraint import_jobs_kind_check;
alter table import_jobs add constraint import_jobs_kind_check check (kind in ('Import', 'Restore', 'Connector'));
alter table import_jobs add column data_source_id uuid;
