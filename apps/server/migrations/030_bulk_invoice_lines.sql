-- Imports load invoice lines and the monthly cube with binary COPY. A foreign key checks every row
-- it is given with a trigger of its own (three per line here), which made a million-line COPY three
-- times slower. Only import and restore jobs write these two tables, in one transaction that writes
-- the clients, items and salespeople the lines name (import-jobs.ts); the keys stay, the checks go.
do $$
declare
  constraint_row record;
begin
  for constraint_row in
    select conrelid::regclass as table_name, conname
    from pg_constraint
    where contype = 'f' and conrelid in ('invoice_lines'::regclass, 'monthly_cube'::regclass)
  loop
    execute format('alter table %s drop constraint %I', constraint_row.table_name, constraint_row.conname);
  end loop;
end
$$;

-- What `on delete cascade` did: an organisation takes its lines and cube with it.
create function delete_organisation_invoice_data() returns trigger language plpgsql as $$
begin
  delete from invoice_lines where organisation_id = old.id;
  delete from monthly_cube where organisation_id = old.id;
  return old;
end
$$;

create trigger organisations_delete_invoice_data
  before delete on organisations
  for each row execute function delete_organisation_invoice_data();
