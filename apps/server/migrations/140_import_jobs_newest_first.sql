-- Import/GetJobs lists an organisation's latest jobs, newest first (docs/import.md, "The list of jobs").
create index import_jobs_newest on import_jobs (organisation_id, created_at desc, id);
