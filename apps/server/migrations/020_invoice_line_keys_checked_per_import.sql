-- The keys of invoice lines are checked once per import or restore, set-based, not by foreign-key
-- triggers row by row (docs/storage.md, "Keys checked once per import"): a trigger a line and key
-- made a first import of a million lines several times slower. What the foreign keys did:
-- - a line names a client, item and salesperson of its organisation: the import checks the ids its
--   lines name once (imports/store-invoice-lines.ts, `checkDimensionIds`), a restore checks the
--   organisation's lines once at its end (imports/backups.ts);
-- - an organisation's lines go with it: the trigger below (the other rows of an organisation go by
--   their own `on delete cascade`);
-- - an organisation is not deleted while an import or restore writes its lines: they hold its row
--   (`for key share`, as a foreign key's check would) until they commit.
alter table invoice_lines
  drop constraint invoice_lines_organisation_id_fkey,
  drop constraint invoice_lines_organisation_id_client_id_fkey,
  drop constraint invoice_lines_organisation_id_item_id_fkey,
  drop constraint invoice_lines_organisation_id_salesperson_id_fkey;

create function delete_organisation_lines() returns trigger language plpgsql as $$
begin
  delete from invoice_lines where organisation_id in (select id from deleted_organisations);
  return null;
end
$$;

create trigger organisations_delete_lines after delete on organisations
  referencing old table as deleted_organisations
  for each statement execute function delete_organisation_lines();
