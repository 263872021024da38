-- Organisation settings and exclusion lists (issue 16).
-- Every tenant-owned row carries organisation_id, and every unique and foreign key includes it.

-- The organisation's settings beside those of its row in `organisations` (name, currency_code,
-- mfa_setting, default_category): the time zone, and how many automatic backups taken before
-- imports are kept. An organisation without a row here has the defaults (settings/organisation-settings.ts).
-- The counters are bumped in the transaction that changes what the analysis counts, so that every
-- server process sees the change with the one query that checks its cached cube
-- (analytics/cube-cache.ts): item categories (the cube is rebuilt) and exclusion lists (only the
-- excluded ids are read again).
create table organisation_settings (
  organisation_id uuid primary key references organisations (id) on delete cascade,
  time_zone text not null default 'UTC' check (length(time_zone) between 1 and 64),
  backups_to_keep integer not null default 10 check (backups_to_keep between 1 and 100),
  categories_version bigint not null default 0,
  exclusions_version bigint not null default 0
);

-- An exclusion list: clients and items left out of every number while the list is active.
create table exclusion_lists (
  organisation_id uuid not null references organisations (id) on delete cascade,
  id uuid not null,
  name text not null check (length(name) between 1 and 100),
  active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organisation_id, id)
);
create unique index exclusion_lists_name_key on exclusion_lists (organisation_id, lower(name));

-- The entries name clients and items by code, their identity in every import: a restore of a
-- backup deletes and re-inserts the organisation's clients and items (a foreign key to them would
-- lose the entries), and an id freed by a restore may be given to another client later.
create table exclusion_list_clients (
  organisation_id uuid not null,
  list_id uuid not null,
  client_code text not null check (length(client_code) between 1 and 100),
  primary key (organisation_id, list_id, client_code),
  foreign key (organisation_id, list_id) references exclusion_lists (organisation_id, id) on delete cascade
);

create table exclusion_list_items (
  organisation_id uuid not null,
  list_id uuid not null,
  item_code text not null check (length(item_code) between 1 and 100),
  primary key (organisation_id, list_id, item_code),
  foreign key (organisation_id, list_id) references exclusion_lists (organisation_id, id) on delete cascade
);
