-- How many of an import's lines replaced stored ones of the same key (docs/import.md, "Re-import and replace").
alter table import_jobs add column rows_replaced integer;
