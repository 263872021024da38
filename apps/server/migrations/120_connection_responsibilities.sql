-- The users responsible for a connection (docs/integration.md, "Responsible users"): told by e-mail
-- when an import from one of its data sources fails. A row goes with its connection, its user and
-- their organisation.
create table connection_responsibilities (
  organisation_id uuid not null,
  connection_id uuid not null,
  user_id uuid not null,
  created_at timestamptz not null default now(),
  primary key (organisation_id, connection_id, user_id),
  foreign key (organisation_id, connection_id) references connections (organisation_id, id) on delete cascade,
  foreign key (organisation_id, user_id) references users (organisation_id, id) on delete cascade
);
create index connection_responsibilities_user on connection_responsibilities (organisation_id, user_id);

-- A maintenance job (docs/integration.md, "Maintenance jobs"), queued by System/AddJob and delivered
-- like an import: RebuildCube builds the monthly cube and its snapshot again from the stored lines.
alter table import_jobs drop constraint import_jobs_kind_check;
alter table import_jobs add constraint import_jobs_kind_check
  check (kind in ('Import', 'Restore', 'Connector', 'RebuildCube'));
