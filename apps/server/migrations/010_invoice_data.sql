-- Invoice data: clients, items (services), salespeople, invoice lines, the monthly cube, import
-- jobs, backups (docs/storage.md). Money is integer cents; quantities are exact decimals with 4
-- places. Every tenant-owned row carries organisation_id, and every unique and foreign key includes it.

create table clients (
  organisation_id uuid not null references organisations (id) on delete cascade,
  id bigserial,
  code text not null check (length(code) between 1 and 100),
  name text not null default '',
  primary key (organisation_id, id),
  unique (organisation_id, code)
);

create table items (
  organisation_id uuid not null references organisations (id) on delete cascade,
  id bigserial,
  code text not null check (length(code) between 1 and 100),
  name text not null default '',
  stock_type text not null check (stock_type in ('Subscription', 'Product', 'Hourly')),
  -- null: the organisation's default category applies
  category text check (category in ('Recurring', 'Adhoc', 'Exclude')),
  primary key (organisation_id, id),
  unique (organisation_id, code)
);

create table salespeople (
  organisation_id uuid not null references organisations (id) on delete cascade,
  id bigserial,
  name text not null check (length(name) between 1 and 200),
  primary key (organisation_id, id),
  unique (organisation_id, name)
);

-- One row per invoice line, keyed as the import format keys them (docs/import.md). Invoice numbers
-- compare byte by byte ("C"), on every server, as the import and level 4 sort them. An import
-- writes these rows from a staging table in one statement (imports/merge-import.ts).
create table invoice_lines (
  organisation_id uuid not null references organisations (id) on delete cascade,
  invoice_number text collate "C" not null,
  line_number integer not null,
  invoice_date date not null,
  client_id bigint not null,
  item_id bigint not null,
  -- null: the line has no salesperson
  salesperson_id bigint,
  quantity numeric(18, 4) not null,
  unit_price numeric(18, 4),
  amount_cents bigint not null,
  cost_cents bigint not null default 0,
  service_from date,
  service_to date,
  record_type text not null check (record_type in ('Actual', 'Budget', 'Forecast')),
  -- The import that wrote the line (a restore keeps it).
  import_job_id uuid,
  primary key (organisation_id, invoice_number, line_number),
  -- Deferrable: a restore puts lines and their clients, items and salespeople back in steps
  -- (imports/backups.ts) and has them checked at its end.
  foreign key (organisation_id, client_id) references clients (organisation_id, id) deferrable,
  foreign key (organisation_id, item_id) references items (organisation_id, id) deferrable,
  foreign key (organisation_id, salesperson_id) references salespeople (organisation_id, id) deferrable,
  check ((service_from is null) = (service_to is null)),
  check (service_to is null or service_to >= service_from)
);
-- Level 4 (TableInvoiceData) asks for a client's, an item's or a pair's lines over some months.
create index invoice_lines_client_item on invoice_lines (organisation_id, client_id, item_id, invoice_date);
-- The latest invoiced month (Actual lines), lines by date (the raw export's period, level 4's months).
create index invoice_lines_type_date on invoice_lines (organisation_id, record_type, invoice_date);
-- Lines with a service period by its end (level 4: a period reaching into the months asked).
create index invoice_lines_service on invoice_lines (organisation_id, service_to) where service_from is not null;

-- The monthly cube (docs/methodology.md, "Spreading"): the lines summed by record type, month,
-- client, item and salesperson (0: none). Derived from invoice_lines: an import adds what its file
-- brings and takes off what it replaces, cell by cell; `line_count` counts the lines (or their
-- monthly shares) in a cell, and a cell that reaches 0 is deleted.
create table monthly_cube (
  organisation_id uuid not null references organisations (id) on delete cascade,
  record_type text not null,
  month date not null,
  client_id bigint not null,
  item_id bigint not null,
  salesperson_id bigint not null default 0,
  quantity numeric(18, 4) not null,
  revenue_cents bigint not null,
  cost_cents bigint not null,
  line_count integer not null,
  primary key (organisation_id, record_type, month, client_id, item_id, salesperson_id)
);

-- The cube's cells, compact (cube/cube-snapshot.ts): a cache that a server reads at start instead
-- of the cube's rows, valid while `data_version` (with the changes after it) is the organisation's.
create table cube_snapshots (
  organisation_id uuid primary key references organisations (id) on delete cascade,
  data_version text not null,
  data bytea not null
);
-- The cells each import changed since the snapshot, in order: an import appends its own (work in
-- proportion to the import), a read applies them and folds them into the snapshot now and then.
create table cube_snapshot_changes (
  organisation_id uuid not null references organisations (id) on delete cascade,
  seq bigserial,
  from_version text not null,
  to_version text not null,
  data bytea not null,
  primary key (organisation_id, seq)
);

create table import_jobs (
  organisation_id uuid not null references organisations (id) on delete cascade,
  id uuid not null,
  user_id uuid,
  status text not null check (status in ('Pending', 'Running', 'Completed', 'Failed', 'FailedPermanently')),
  kind text not null default 'Import' check (kind in ('Import', 'Restore')),
  file_name text not null,
  file_path text not null,
  file_sha256 text not null,
  -- A retried upload with the same key is the same job; a restore that undoes an import frees its key.
  idempotency_key text not null,
  -- The backup a restore job restores.
  backup_id uuid,
  attempts integer not null default 0,
  rows_imported integer,
  result jsonb,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  primary key (organisation_id, id),
  unique (organisation_id, idempotency_key)
);
create index import_jobs_pending on import_jobs (status, created_at) where status in ('Pending', 'Running');

-- Backups (docs/storage.md): a backup taken before an import is an undo record, the lines the import
-- replaced (its own lines are those with its import_job_id); one taken by hand or before a restore
-- is a snapshot of every line. Either keeps the organisation's clients, items and salespeople as
-- they were, as gzip'd JSON in `data`.
create table backups (
  organisation_id uuid not null references organisations (id) on delete cascade,
  id uuid not null,
  reason text not null check (reason in ('BeforeImport', 'OnDemand', 'BeforeRestore')),
  -- The import an undo record undoes (reason BeforeImport).
  import_job_id uuid,
  line_count integer not null,
  size_bytes integer not null,
  data bytea not null,
  created_at timestamptz not null default clock_timestamp(),
  primary key (organisation_id, id),
  check ((reason = 'BeforeImport') = (import_job_id is not null))
);
create index backups_created on backups (organisation_id, created_at);

create table backup_lines (
  organisation_id uuid not null,
  backup_id uuid not null,
  invoice_number text collate "C" not null,
  line_number integer not null,
  invoice_date date not null,
  client_id bigint not null,
  item_id bigint not null,
  salesperson_id bigint,
  quantity numeric(18, 4) not null,
  unit_price numeric(18, 4),
  amount_cents bigint not null,
  cost_cents bigint not null,
  service_from date,
  service_to date,
  record_type text not null,
  import_job_id uuid,
  primary key (organisation_id, backup_id, invoice_number, line_number),
  foreign key (organisation_id, backup_id) references backups (organisation_id, id) on delete cascade
);
