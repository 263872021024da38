import { importUpload } from "@varia/contracts";
import { selectJob, selectJobCompleted, selectJobFinished, selectJobLabel } from "@varia/machines";
import { useSelector } from "@xstate/react";
import { useState } from "react";
import { type ActorRefFrom, createActor } from "xstate";
import { api } from "../api";
import { FilePicker } from "../shell/FilePicker";
import { FormMessage } from "../shell/FormMessage";
import { StartupContext } from "../shell/startup-context";
import { afterDataChanged } from "../workspace/refresh-periods";
import { appImportJobMachine } from "./import-job-actor";
import { PageFrame } from "./PageFrame";

type JobActor = ActorRefFrom<typeof appImportJobMachine>;

function JobProgress({ actor }: { actor: JobActor }) {
  const label = useSelector(actor, selectJobLabel);
  const job = useSelector(actor, selectJob);
  const finished = useSelector(actor, selectJobFinished);
  const completed = useSelector(actor, selectJobCompleted);
  return (
    <div className="job-progress" role="status" aria-live="polite">
      <p className={`job-progress__label${finished ? (completed ? " is-done" : " is-failed") : ""}`}>
        {!finished && <span className="spinner spinner--dark" aria-hidden="true" />}
        {label}
      </p>
      {completed && job && (
        <p>
          {job.rowsImported} invoice lines imported from {job.fileName}.
        </p>
      )}
      {finished && !completed && job && (
        <>
          <p>{job.message}</p>
          {job.errors.length > 0 && (
            <table className="table">
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
          )}
        </>
      )}
    </div>
  );
}

/**
 * Integration overview: import invoice lines from a CSV file and follow the job (docs/import.md,
 * docs/behaviour.md#import-jobs).
 */
export function ImportPage() {
  const [file, setFile] = useState<File | null>(null);
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [job, setJob] = useState<JobActor | null>(null);
  const startup = StartupContext.useActorRef();

  const upload = async () => {
    if (!file) return;
    setUploading(true);
    setError(null);
    try {
      const queued = await api.upload(importUpload, { file, fileName: file.name });
      job?.stop();
      const actor = createActor(appImportJobMachine, { input: { jobGuid: queued.jobGuid } });
      actor.subscribe((snapshot) => {
        // A finished job may have changed the data (a first import brings its months).
        if (snapshot.status === "done") afterDataChanged(startup);
      });
      actor.start();
      setJob(actor);
    } catch (e) {
      setError((e as { serverMessage?: string }).serverMessage ?? (e as Error).message);
    } finally {
      setUploading(false);
    }
  };

  return (
    <PageFrame title="Integrations">
      <section className="panel" aria-labelledby="csv-heading">
        <h2 id="csv-heading">Import from CSV</h2>
        <p className="page__subtitle">
          Upload invoice lines as CSV. The whole file is checked first: a file with mistakes changes nothing
          and lists every one. <a href="/api/Import/Template">Download the template</a>.
        </p>
        <div className="panel__row">
          <FilePicker onChange={setFile} disabled={uploading} />
          <button
            type="button"
            className="button button--primary"
            disabled={!file || uploading}
            onClick={upload}
          >
            {uploading && <span className="spinner" aria-hidden="true" />}
            Upload
          </button>
        </div>
        <FormMessage error={error} />
        {job && <JobProgress actor={job} />}
      </section>
    </PageFrame>
  );
}
