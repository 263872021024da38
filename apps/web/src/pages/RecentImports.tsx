import { errorText } from "@varia/api-client";
import {
  type ImportJob,
  type ImportJobSummary,
  importGetJobStatus,
  importGetJobs,
  type JobStatus,
  jobKindLabels,
  jobStartedByLabel,
} from "@varia/contracts";
import { jobPollIntervalMs } from "@varia/machines";
import { Fragment, useCallback, useEffect, useState } from "react";
import { api } from "../api";
import { FormMessage } from "../shell/FormMessage";
import { type Format, useFormat } from "../ui/format";
import { dateTime } from "../workspace/settings/date-time";
import { BadCells } from "./JobProgress";

/** How many of the latest jobs the Integrations page shows. */
export const recentImportCount = 10;

const statuses: Record<JobStatus, string> = {
  Unknown: "Unknown",
  Pending: "Queued",
  Running: "Running",
  Completed: "Completed",
  Failed: "Failed",
  FailedPermanently: "Failed",
};

const unfinished = (job: ImportJobSummary) => job.status === "Pending" || job.status === "Running";

/** What came of a job: the lines it imported or restored, the bad cells of a refused file, or why it failed. */
function outcome(job: ImportJobSummary, format: Format): string {
  if (job.status === "Completed") {
    const n = job.rowsImported ?? 0;
    const lines = `${format.count(n)} ${n === 1 ? "line" : "lines"}`;
    // A re-import says how many of its lines replaced stored ones (docs/import.md, "Re-import and replace").
    const replaced = job.rowsReplaced ?? 0;
    return replaced > 0
      ? `${lines}, ${format.count(replaced)} replacing stored ${replaced === 1 ? "one" : "ones"}`
      : lines;
  }
  if (job.status === "Failed" && job.errorCount > 0)
    return `${format.count(job.errorCount)} bad ${job.errorCount === 1 ? "cell" : "cells"}, nothing imported`;
  if (job.status === "Failed" || job.status === "FailedPermanently") return job.message ?? "";
  return "";
}

/**
 * The organisation's latest jobs (Import/GetJobs; docs/import.md, "The list of jobs"): when each was
 * queued, its file or source, who started it (a schedule, or none: the server's own import or a user
 * since deleted), its status and what came of it. Loaded again when
 * `refreshKey` changes (a job queued or finished on the page) and, while one of them is unfinished,
 * as often as a job is followed.
 */
export function RecentImports({ refreshKey }: { refreshKey: number }) {
  const format = useFormat();
  const [jobs, setJobs] = useState<ImportJobSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setJobs(await api.call(importGetJobs, { query: { Limit: recentImportCount } }));
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: refreshKey asks for the list again.
  useEffect(() => {
    void load();
  }, [load, refreshKey]);
  // A refused file's bad cells, asked for when its row is opened (Import/GetJobStatus).
  const [opened, setOpened] = useState<{ jobGuid: string; job: ImportJob | null } | null>(null);
  const toggle = async (jobGuid: string) => {
    if (opened?.jobGuid === jobGuid) return setOpened(null);
    setOpened({ jobGuid, job: null });
    try {
      const job = await api.call(importGetJobStatus, { query: { JobGuid: jobGuid } });
      setOpened((now) => (now?.jobGuid === jobGuid ? { jobGuid, job } : now));
    } catch (e) {
      setOpened(null);
      setError(errorText(e));
    }
  };
  const running = jobs?.some(unfinished) ?? false;
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => void load(), jobPollIntervalMs);
    return () => window.clearInterval(timer);
  }, [running, load]);

  return (
    <section className="panel" aria-labelledby="recent-imports-heading">
      <h2 id="recent-imports-heading">Recent imports</h2>
      <FormMessage error={error} />
      {jobs === null && !error ? (
        <p className="page__subtitle" role="status">
          <span className="spinner spinner--dark" aria-hidden="true" /> Loading the imports…
        </p>
      ) : null}
      {jobs?.length === 0 ? (
        <p className="page__subtitle">
          Nothing has been imported yet: upload a CSV file or connect a package.
        </p>
      ) : null}
      {jobs?.length ? (
        // Wider than its frame (between a phone's width and a laptop's), the table scrolls sideways: its
        // frame takes the keyboard's focus for that. On a phone each import is a block (ui.css).
        // biome-ignore lint/a11y/useSemanticElements: a table's frame, not a form's fieldset
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling frame must be reachable by keyboard (axe)
        <div className="recent-imports" role="group" aria-labelledby="recent-imports-heading" tabIndex={0}>
          <table className="data-table table--stack" aria-labelledby="recent-imports-heading">
            <thead>
              <tr>
                <th scope="col">Queued</th>
                <th scope="col">File or source</th>
                <th scope="col">Kind</th>
                <th scope="col">By</th>
                <th scope="col">Status</th>
                <th scope="col">Result</th>
              </tr>
            </thead>
            <tbody>
              {jobs.map((job) => {
                const isOpen = opened?.jobGuid === job.jobGuid;
                const cellsId = `bad-cells-${job.jobGuid}`;
                return (
                  <Fragment key={job.jobGuid}>
                    <tr>
                      <th scope="row">{dateTime(job.createdAt, format, { seconds: true })}</th>
                      <td className="recent-imports__file" data-label="File or source">
                        {job.fileName}
                      </td>
                      <td data-label="Kind">{jobKindLabels[job.kind]}</td>
                      <td data-label="By">{jobStartedByLabel(job)}</td>
                      <td data-label="Status">
                        <span className={`job-status job-status--${job.status}`}>{statuses[job.status]}</span>
                      </td>
                      <td data-label="Result">
                        {/* One piece, so that on a phone it sits beside its label (ui.css, .table--stack). */}
                        <div>
                          {outcome(job, format)}
                          {job.errorCount > 0 ? (
                            <button
                              type="button"
                              className="button button--link recent-imports__toggle"
                              aria-expanded={isOpen}
                              aria-controls={isOpen ? cellsId : undefined}
                              onClick={() => void toggle(job.jobGuid)}
                            >
                              {isOpen ? "Hide them" : "Show them"}
                            </button>
                          ) : null}
                        </div>
                      </td>
                    </tr>
                    {isOpen ? (
                      <tr id={cellsId}>
                        <td colSpan={6}>
                          {opened.job ? (
                            <>
                              <BadCells job={opened.job} label={`Bad cells of ${job.fileName}`} />
                              {opened.job.errorCount > opened.job.errors.length ? (
                                <p className="data-source__meta">
                                  The first {format.count(opened.job.errors.length)} of{" "}
                                  {format.count(opened.job.errorCount)} are listed.
                                </p>
                              ) : null}
                            </>
                          ) : (
                            <span
                              className="spinner spinner--dark"
                              role="status"
                              aria-label="Loading the bad cells"
                            />
                          )}
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
