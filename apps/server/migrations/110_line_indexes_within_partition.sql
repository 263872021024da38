-- The key and indexes of invoice_lines without the organisation at their head (docs/storage.md,
-- "Indexes within a partition"): a partition holds one organisation's lines, so organisation_id in
-- front of every entry told the partition's index nothing, and made each a fifth larger and its
-- build (a first import's largest cost) slower. The key keeps organisation_id, last, as a key of
-- a partitioned table must hold the partition key.
alter table invoice_lines drop constraint invoice_lines_pkey;
drop index invoice_lines_client_item, invoice_lines_type_date, invoice_lines_service;
alter table invoice_lines add constraint invoice_lines_pkey primary key (invoice_number, line_number, organisation_id);
create index invoice_lines_client_item on invoice_lines (client_id, item_id, invoice_date);
create index invoice_lines_type_date on invoice_lines (record_type, invoice_date, invoice_number, line_number);
create index invoice_lines_service on invoice_lines (service_to) where service_from is not null;

-- As in migration 100, with the key and indexes above: they must match the parent's to be taken
-- as the partition's own.
create or replace function attach_invoice_line_table(organisation uuid) returns void language plpgsql as $$
declare
  t text := invoice_line_partition(organisation);
begin
  execute format('alter table %I add constraint %I primary key (invoice_number, line_number, organisation_id)',
    t, t || '_pkey');
  execute format('create index %I on %I (client_id, item_id, invoice_date)', t || '_client_item', t);
  execute format('create index %I on %I (record_type, invoice_date, invoice_number, line_number)',
    t || '_type_date', t);
  execute format('create index %I on %I (service_to) where service_from is not null', t || '_service', t);
  execute format('alter table invoice_lines attach partition %I for values in (%L)', t, organisation);
end
$$;
