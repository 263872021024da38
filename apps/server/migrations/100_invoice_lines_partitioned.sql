-- invoice_lines partitioned by organisation (docs/storage.md, "A partition per organisation"): a
-- first import loads its lines into a table of their own and builds its indexes after the load
-- (docs/storage.md, "A first import: a table of its own, indexed after the load"). The columns,
-- checks, key and indexes are those of before; the lines stored are moved into their partitions.
alter table invoice_lines rename to invoice_lines_unpartitioned;
alter table invoice_lines_unpartitioned drop constraint invoice_lines_pkey;
drop index invoice_lines_client_item, invoice_lines_type_date, invoice_lines_service;

create table invoice_lines (
  organisation_id uuid not null,
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
  record_type text not null,
  -- The import that wrote the line (a restore keeps it).
  import_job_id uuid,
  primary key (organisation_id, invoice_number, line_number),
  constraint invoice_lines_record_type check (record_type in ('Actual', 'Budget', 'Forecast')),
  constraint invoice_lines_service_both check ((service_from is null) = (service_to is null)),
  constraint invoice_lines_service_order check (service_to is null or service_to >= service_from)
) partition by list (organisation_id);
-- The indexes of migrations 010 and 070, partitioned: each partition has its own, built with it.
create index invoice_lines_client_item on invoice_lines (organisation_id, client_id, item_id, invoice_date);
create index invoice_lines_type_date
  on invoice_lines (organisation_id, record_type, invoice_date, invoice_number, line_number);
create index invoice_lines_service on invoice_lines (organisation_id, service_to) where service_from is not null;

-- The name of an organisation's partition: from its id (a uuid), never from anything a user gives.
create function invoice_line_partition(organisation uuid) returns text language sql immutable
  return 'invoice_lines_' || replace(organisation::text, '-', '');

-- A table for an organisation's lines, not yet a partition: the columns and checks of
-- invoice_lines, and a check of the organisation with which attaching it reads none of its rows.
create function create_invoice_line_table(organisation uuid) returns void language plpgsql as $$
declare
  t text := invoice_line_partition(organisation);
begin
  execute format('create table %I (like invoice_lines including defaults including constraints,
    constraint %I check (organisation_id = %L))', t, t || '_organisation', organisation);
end
$$;

-- Builds the key and the indexes of the table of create_invoice_line_table (after its lines are
-- loaded) and attaches it as the organisation's partition: invoice_lines takes these indexes as the
-- partition's own instead of building others. They must match the parent's above.
create function attach_invoice_line_table(organisation uuid) returns void language plpgsql as $$
declare
  t text := invoice_line_partition(organisation);
begin
  execute format('alter table %I add constraint %I primary key (organisation_id, invoice_number, line_number)',
    t, t || '_pkey');
  execute format('create index %I on %I (organisation_id, client_id, item_id, invoice_date)', t || '_client_item', t);
  execute format('create index %I on %I (organisation_id, record_type, invoice_date, invoice_number, line_number)',
    t || '_type_date', t);
  execute format('create index %I on %I (organisation_id, service_to) where service_from is not null',
    t || '_service', t);
  execute format('alter table invoice_lines attach partition %I for values in (%L)', t, organisation);
end
$$;

-- The lines stored, each organisation's into its partition.
do $$
declare
  o uuid;
begin
  for o in select distinct organisation_id from invoice_lines_unpartitioned loop
    perform create_invoice_line_table(o);
    execute format('insert into %I select * from invoice_lines_unpartitioned where organisation_id = %L',
      invoice_line_partition(o), o);
    perform attach_invoice_line_table(o);
  end loop;
end
$$;
drop table invoice_lines_unpartitioned;

-- An organisation's lines go with it (migration 020): its partition is dropped, unless another
-- transaction is using invoice_lines at that moment (dropping a partition needs invoice_lines to
-- itself, and waiting for it would hold up every reader behind it): then its lines are deleted and
-- the empty partition stays.
create or replace function delete_organisation_lines() returns trigger language plpgsql as $$
declare
  o uuid;
begin
  for o in select id from deleted_organisations loop
    if to_regclass(invoice_line_partition(o)) is null then
      continue;
    end if;
    begin
      lock table only invoice_lines in access exclusive mode nowait;
      execute format('drop table %I', invoice_line_partition(o));
    exception when lock_not_available then
      delete from invoice_lines where organisation_id = o;
    end;
  end loop;
  return null;
end
$$;
