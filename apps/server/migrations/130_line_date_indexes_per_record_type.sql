-- The lines by date in a partial index per record type, not one index with the record type first
-- (docs/storage.md, "Indexes within a partition"): that first column held the same value ('Actual')
-- in almost every line, and its build, the most expensive of a first import's
-- (docs/storage.md, "A first import: a table of its own, indexed after the load"), compared nearly
-- every pair of entries on the columns after it. The Actual lines' index on (invoice_date,
-- invoice_number, line_number) builds in about half the time, and those of Budget and Forecast, with
-- few lines or none, in one read of the table each. Level 4's page reads the one of each record type
-- as it read the one before (docs/storage.md, "Level 4's page").
drop index invoice_lines_type_date;

-- The partitions' own indexes first, named as attach_invoice_line_table names them: the parent's
-- below takes them as the partitions' instead of building others.
do $$
declare
  t text;
  r text;
begin
  for t in select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'invoice_lines'::regclass loop
    foreach r in array array['Actual', 'Budget', 'Forecast'] loop
      execute format('create index %I on %I (invoice_date, invoice_number, line_number) where record_type = %L',
        t || '_' || lower(r) || '_date', t, r);
    end loop;
  end loop;
end
$$;
create index invoice_lines_actual_date on invoice_lines (invoice_date, invoice_number, line_number)
  where record_type = 'Actual';
create index invoice_lines_budget_date on invoice_lines (invoice_date, invoice_number, line_number)
  where record_type = 'Budget';
create index invoice_lines_forecast_date on invoice_lines (invoice_date, invoice_number, line_number)
  where record_type = 'Forecast';

-- As in migration 110, with the indexes above: they must match the parent's, predicate included,
-- to be taken as the partition's own.
create or replace function attach_invoice_line_table(organisation uuid) returns void language plpgsql as $$
declare
  t text := invoice_line_partition(organisation);
begin
  execute format('alter table %I add constraint %I primary key (invoice_number, line_number, organisation_id)',
    t, t || '_pkey');
  execute format('create index %I on %I (client_id, item_id, invoice_date)', t || '_client_item', t);
  execute format('create index %I on %I (invoice_date, invoice_number, line_number) where record_type = ''Actual''',
    t || '_actual_date', t);
  execute format('create index %I on %I (invoice_date, invoice_number, line_number) where record_type = ''Budget''',
    t || '_budget_date', t);
  execute format('create index %I on %I (invoice_date, invoice_number, line_number) where record_type = ''Forecast''',
    t || '_forecast_date', t);
  execute format('create index %I on %I (service_to) where service_from is not null', t || '_service', t);
  execute format('alter table invoice_lines attach partition %I for values in (%L)', t, organisation);
end
$$;
