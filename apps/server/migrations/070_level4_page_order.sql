-- Level 4's page in the order of an index (docs/storage.md, "Level 4's page"): the lines of a record
-- type by date, then invoice number and line number, as TableInvoiceData sorts them by date. It
-- replaces the index on (organisation_id, record_type, invoice_date), whose queries it serves as well
-- (the latest invoiced month, lines by date).
drop index invoice_lines_type_date;
create index invoice_lines_type_date
  on invoice_lines (organisation_id, record_type, invoice_date, invoice_number, line_number);
