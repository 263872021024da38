import { type ImportJob, importedLinesSplit } from "@varia/contracts";
import {
  selectJob,
  selectJobCompleted,
  selectJobFinished,
  selectJobLabel,
  selectOpensDashboards,
} from "@varia/machines";
import { useSelector } from "@xstate/react";
import { Link } from "react-router";
import type { ActorRefFrom } from "xstate";
import { StartupContext } from "../shell/startup-context";
import { useFormat } from "../ui/format";
import { dateTime } from "../workspace/settings/date-time";
import type { appImportJobMachine } from "./import-job-actor";

export type JobActor = ActorRefFrom<typeof appImportJobMachine>;

/** A refused file's bad cells, a row each (line, column, problem); nothing when it listed none. */
export function BadCells({ job, label }: { job: ImportJob; label?: string }) {
  if (job.errors.length === 0) return null;
  return (
    <table className="table" aria-label={label}>
      <thead>
        <tr>
          <th scope="col">Line</th>
          <th scope="col">Column</th>
          <th scope="col">Problem</th>
        </tr>
      </thead>
      <tbody>
        {job.errors.map((e) => (
          <tr key={`${e.line}-${e.column}`}>
            <td>{e.line}</td>
            <td>{e.column}</td>
            <td>{e.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * An import job as it runs (docs/behaviour.md#import-jobs): its status label, then the lines imported
 * and, to a user who sees the dashboards, the way to them; or why it failed with every bad row.
 */
export function JobProgress({ actor }: { actor: JobActor }) {
  const label = useSelector(actor, selectJobLabel);
  const job = useSelector(actor, selectJob);
  const finished = useSelector(actor, selectJobFinished);
  const completed = useSelector(actor, selectJobCompleted);
  const format = useFormat();
  const dashboards = StartupContext.useSelector(selectOpensDashboards);
  // A file of a header and nothing under it (an export filtered to nothing, say): said so, with no
  // way to a dashboard that has nothing new to show (docs/import.md, "Validation").
  const headerOnly = job?.kind === "Import" && job.rowsImported === 0;
  // New lines, or lines that replaced stored ones of the same key (docs/import.md, "Re-import and replace").
  const split = job ? importedLinesSplit(job, format.count) : null;
  return (
    <div className="job-progress" role="status" aria-live="polite">
      <p className={`job-progress__label${finished ? (completed ? " is-done" : " is-failed") : ""}`}>
        {!finished && <span className="spinner spinner--dark" aria-hidden="true" />}
        {label}
      </p>
      {completed && job && headerOnly ? (
        <p>{job.fileName} holds no invoice lines under its header: nothing was imported.</p>
      ) : null}
      {completed && job && !headerOnly && (
        <p>
          {format.count(job.rowsImported ?? 0)} invoice {job.rowsImported === 1 ? "line" : "lines"} imported
          from {job.fileName}
          {split ? `: ${split}` : ""}.
          {job.finishedAt ? (
            <span className="job-progress__when"> Finished {dateTime(job.finishedAt, format)}.</span>
          ) : null}
          {dashboards ? (
            <>
              {" "}
              <Link to="/variance/dashboard/stockTypeOverview">See it on the dashboard</Link>
            </>
          ) : null}
        </p>
      )}
      {finished && !completed && job && (
        <>
          <p>{job.message}</p>
          <BadCells job={job} />
        </>
      )}
    </div>
  );
}
