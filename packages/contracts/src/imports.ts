import { z } from "zod";
import { abilities } from "./abilities";
import { defineContract } from "./define-contract";

/** Job status (docs/api.md#import-jobs, docs/behaviour.md#import-jobs). */
export const jobStatuses = [
  "Unknown",
  "Pending",
  "Running",
  "Completed",
  "Failed",
  "FailedPermanently",
] as const;
export const jobStatusSchema = z.enum(jobStatuses);
export type JobStatus = z.infer<typeof jobStatusSchema>;

/** One bad cell of an import: the line (the header is line 1), the column and why. */
export const importRowErrorSchema = z.object({
  line: z.number().int(),
  column: z.string(),
  message: z.string(),
});
export type ImportRowError = z.infer<typeof importRowErrorSchema>;

/**
 * What a job does: an import of an uploaded file (Import) or of a data source (Connector), a
 * restore of a backup (Restore), or a maintenance job (RebuildCube, System/AddJob).
 */
export const jobKindSchema = z.enum(["Import", "Connector", "Restore", "RebuildCube"]);
export type JobKind = z.infer<typeof jobKindSchema>;

/** A job's kind as people read it, on the Integrations page and in `varia import list`. */
export const jobKindLabels: Record<JobKind, string> = {
  Import: "Upload",
  Connector: "Accounting package",
  Restore: "Restore of a backup",
  RebuildCube: "Figures rebuilt",
};

/**
 * Who started a job, as people read it: the user (an API token acts as its user); "Schedule" for an
 * import a data source's schedule started; "Varia" for a job of the server's own, such as loading
 * the demo data or rebuilding the figures.
 */
export function jobStartedByLabel(job: { kind: JobKind; startedBy: string | null }): string {
  return job.startedBy ?? (job.kind === "Connector" ? "Schedule" : "Varia");
}

/** `n` lines, counted as the caller writes numbers ("1 line", "2,500 lines"). */
const countLines = (n: number, count: (n: number) => string, what = "line") =>
  `${count(n)} ${what}${n === 1 ? "" : "s"}`;

/**
 * How a completed import's lines split between new ones and those that replaced stored lines of
 * the same key, as the import page and `varia import upload` say it after "… lines imported from
 * lines.csv: " ("all new"; "1 new, 2 replacing stored lines of the same invoice and line number");
 * null when the job did not record it (docs/import.md, "Re-import and replace").
 */
export function importedLinesSplit(
  job: { rowsImported: number | null; rowsReplaced: number | null },
  count: (n: number) => string,
): string | null {
  if (job.rowsImported === null || job.rowsReplaced === null || job.rowsImported === 0) return null;
  if (job.rowsReplaced === 0) return "all new";
  const added = job.rowsImported - job.rowsReplaced;
  const replacing = `${count(job.rowsReplaced)} replacing stored ${job.rowsReplaced === 1 ? "line" : "lines"} of the same invoice and line number`;
  return `${added === 0 ? "none" : count(added)} new, ${replacing}`;
}

/**
 * What a completed restore left, as the backups page and `varia backups restore --wait` say it: its
 * job's lines are those stored once it ended, the organisation's as they were when the backup was
 * taken (docs/storage.md, "Backups are undo records and snapshots").
 */
export function restoredLinesSentence(lines: number, count: (n: number) => string): string {
  return lines === 0
    ? "no invoice lines are stored now, as none were then"
    : `the ${countLines(lines, count, "invoice line")} stored now ${lines === 1 ? "is" : "are"} as ${lines === 1 ? "it was" : "they were"} then`;
}

export const importJobSchema = z.object({
  jobGuid: z.string(),
  kind: jobKindSchema,
  status: jobStatusSchema,
  /** The file imported; a data source's import: the package and source; a restore: the backup. */
  fileName: z.string(),
  rowsImported: z.number().int().nullable(),
  /**
   * Of a completed import's lines, how many replaced stored lines of the same key (the rest are
   * new); null for a restore, a rebuild or a job not completed (docs/import.md, "Re-import and replace").
   */
  rowsReplaced: z.number().int().nullable(),
  /** Every bad row of a rejected file (at most `maxListedErrors`), and how many there were. */
  errors: z.array(importRowErrorSchema),
  errorCount: z.number().int(),
  message: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ImportJob = z.infer<typeof importJobSchema>;

/** A job in the organisation's list of jobs: as its status, without the bad cells, with who started it. */
export const importJobSummarySchema = importJobSchema.omit({ errors: true }).extend({
  /**
   * The user who started it (an API token acts as its user), "A deleted user" for one deleted since;
   * null for a schedule or the server.
   */
  startedBy: z.string().nullable(),
});
export type ImportJobSummary = z.infer<typeof importJobSummarySchema>;

/** How many jobs Import/GetJobs answers when not told, and at most. */
export const importJobListLimits = { default: 20, max: 100 } as const;

export const importUpload = defineContract({
  name: "import/upload",
  method: "POST",
  root: "api",
  path: "import/upload",
  bodyKind: "multipart",
  response: z.object({ jobGuid: z.string(), status: jobStatusSchema, duplicate: z.boolean() }),
  responseKind: "json",
  access: abilities.importRun,
  policy: "never",
  summary:
    "Upload a CSV of invoice lines (multipart part 'csv'); answers at once with the job. An Idempotency-Key header (or the file's SHA-256) makes a retried upload a no-op.",
});

export const importGetJobStatus = defineContract({
  name: "Import/GetJobStatus",
  method: "GET",
  root: "api",
  path: "Import/GetJobStatus",
  query: z.object({ JobGuid: z.uuid() }),
  response: importJobSchema,
  responseKind: "json",
  access: abilities.importRun,
  policy: "never",
  summary: "The status of an import job, with every bad row of a rejected file.",
});

export const importGetJobs = defineContract({
  name: "Import/GetJobs",
  method: "GET",
  root: "api",
  path: "Import/GetJobs",
  query: z.object({ Limit: z.coerce.number().int().min(1).max(importJobListLimits.max).optional() }),
  response: z.array(importJobSummarySchema),
  responseKind: "json",
  access: abilities.importRun,
  policy: "never",
  summary:
    "The organisation's latest jobs, newest first: uploads, imports from data sources and restores, with their status and who started them (Limit: 20, at most 100).",
});

export const importTemplate = defineContract({
  name: "Import/Template",
  method: "GET",
  root: "api",
  path: "Import/Template",
  response: z.string(),
  responseKind: "file",
  access: abilities.importRun,
  summary: "The CSV template: the header and two example rows.",
});
