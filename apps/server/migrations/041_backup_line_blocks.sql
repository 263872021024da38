-- A backup holds the organisation's blocks of invoice lines as they were (copied within the
-- database, never decoded), beside the clients, items and salespeople in `backups.data`
-- (format varia-backup/2). Backups of format 1 keep their lines in `backups.data`.
create table backup_line_blocks (
  organisation_id uuid not null,
  backup_id uuid not null,
  id bigint not null,
  import_job_id uuid,
  line_count integer not null,
  last_actual_day integer,
  data bytea not null,
  primary key (organisation_id, backup_id, id),
  foreign key (organisation_id, backup_id) references backups (organisation_id, id) on delete cascade
);
alter table backup_line_blocks alter column data set storage external;
