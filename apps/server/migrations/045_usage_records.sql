-- The workspace's own analytics records (PUT analytics/general): feature usage of cards (expanded,
-- shrunk, help shown or hidden) and front-end 404s, per user. Kept 180 days (the route prunes).
create table usage_records (
  organisation_id uuid not null references organisations (id) on delete cascade,
  id bigint generated always as identity,
  user_id uuid not null,
  record_type text not null check (length(record_type) between 1 and 50),
  record_data text not null check (length(record_data) <= 2000),
  key1 text check (length(key1) <= 200),
  key2 text check (length(key2) <= 200),
  key3 text check (length(key3) <= 200),
  occurred_at timestamptz not null,
  received_at timestamptz not null default now(),
  primary key (organisation_id, id),
  foreign key (organisation_id, user_id) references users (organisation_id, id) on delete cascade
);
create index usage_records_by_time on usage_records (organisation_id, occurred_at);
create index usage_records_by_type on usage_records (organisation_id, record_type, key1);
