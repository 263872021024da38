-- Backups of an organisation's invoice data (taken before every import and on demand), and
-- restore jobs, which run through the same durable job queue as imports.

create table backups (
  organisation_id uuid not null references organisations (id) on delete cascade,
  id uuid not null,
  reason text not null check (reason in ('BeforeImport', 'OnDemand', 'BeforeRestore')),
  line_count integer not null,
  size_bytes integer not null,
  data bytea not null,
  created_at timestamptz not null default now(),
  primary key (organisation_id, id)
);

alter table import_jobs add column kind text not null default 'Import' check (kind in ('Import', 'Restore'));
alter table import_jobs add column backup_id uuid;
