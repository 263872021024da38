-- Invoice data: clients, items (services), salespeople, invoice lines, the monthly cube, import jobs.
-- Money is integer cents; quantities are exact decimals with 4 places.

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

create table invoice_lines (
  organisation_id uuid not null references organisations (id) on delete cascade,
  invoice_number text not null,
  line_number integer not null,
  invoice_date date not null,
  client_id bigint not null,
  item_id bigint not null,
  salesperson_id bigint,
  quantity numeric(18, 4) not null,
  unit_price numeric(18, 4),
  amount_cents bigint not null,
  cost_cents bigint not null default 0,
  service_from date,
  service_to date,
  record_type text not null default 'Actual' check (record_type in ('Actual', 'Budget', 'Forecast')),
  import_job_id uuid,
  primary key (organisation_id, invoice_number, line_number),
  foreign key (organisation_id, client_id) references clients (organisation_id, id),
  foreign key (organisation_id, item_id) references items (organisation_id, id),
  foreign key (organisation_id, salesperson_id) references salespeople (organisation_id, id),
  check ((service_from is null) = (service_to is null)),
  check (service_to is null or service_to >= service_from)
);

-- The monthly cube of DESIGN 7.1, rebuilt for an organisation by every import.
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
  primary key (organisation_id, record_type, month, client_id, item_id, salesperson_id)
);

create table import_jobs (
  organisation_id uuid not null references organisations (id) on delete cascade,
  id uuid not null,
  user_id uuid,
  status text not null check (status in ('Pending', 'Running', 'Completed', 'Failed', 'FailedPermanently')),
  file_name text not null,
  file_path text not null,
  file_sha256 text not null,
  idempotency_key text not null,
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
