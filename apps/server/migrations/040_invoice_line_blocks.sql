-- Invoice lines in blocks (src/lines/line-block.ts): tens of thousands of an organisation's lines
-- in one value, column by column, in the order of their file. A million lines load as a
-- COPY of a few dozen rows instead of a million rows with a unique index entry each; the import
-- checks the keys in memory. `invoice_lines` stays only until its rows are moved into blocks
-- (moveLegacyInvoiceLines, run after the migrations).
create table invoice_line_blocks (
  organisation_id uuid not null references organisations (id) on delete cascade,
  id bigserial,
  import_job_id uuid,
  line_count integer not null check (line_count > 0),
  -- The latest invoice date of the block's Actual lines, in days since 2000-01-01.
  last_actual_day integer,
  data bytea not null,
  primary key (organisation_id, id)
);
-- Blocks are written once and read whole: no compression (pglz would cost more than it saves).
alter table invoice_line_blocks alter column data set storage external;
