import { errorText } from "@varia/api-client";
import { abilities, importUpload } from "@varia/contracts";
import { selectHasAbility } from "@varia/machines";
import { useCallback, useState } from "react";
import { createActor } from "xstate";
import { api } from "../api";
import { FilePicker } from "../shell/FilePicker";
import { FormMessage } from "../shell/FormMessage";
import { StartupContext } from "../shell/startup-context";
import { afterDataChanged } from "../workspace/refresh-periods";
import { DataSourcesPanel } from "./DataSourcesPanel";
import { appImportJobMachine } from "./import-job-actor";
import { type JobActor, JobProgress } from "./JobProgress";
import { PageFrame } from "./PageFrame";
import { RecentImports } from "./RecentImports";

const selectCanImport = selectHasAbility(abilities.importRun);

/**
 * Integration overview: import invoice lines from a CSV file and follow the job (docs/import.md,
 * docs/behaviour.md#import-jobs), and the latest jobs (docs/import.md, "The list of jobs").
 */
export function ImportPage() {
  const [file, setFile] = useState<File | null>(null);
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [job, setJob] = useState<JobActor | null>(null);
  // The file of an upload the server had already taken (docs/import.md, "De-duplication of uploads").
  const [sentBefore, setSentBefore] = useState<string | null>(null);
  // Bumped when a job is queued or ends here: the list of recent imports is loaded again.
  const [jobsChanged, setJobsChanged] = useState(0);
  const changed = useCallback(() => setJobsChanged((n) => n + 1), []);
  const startup = StartupContext.useActorRef();
  // The route opens for Connections/Manage or Import/Run (WorkspaceRoutes); the CSV panel needs the latter.
  const canImport = StartupContext.useSelector(selectCanImport);

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
        if (snapshot.status !== "done") return;
        afterDataChanged(startup);
        changed();
      });
      actor.start();
      setJob(actor);
      setSentBefore(queued.duplicate ? file.name : null);
      changed();
    } catch (e) {
      // A refused file leaves no result under its error: the one shown was an earlier file's.
      job?.stop();
      setJob(null);
      setSentBefore(null);
      setError(errorText(e));
    } finally {
      setUploading(false);
    }
  };

  return (
    <PageFrame title="Integrations">
      <DataSourcesPanel onJobChanged={changed} />
      {canImport ? (
        <section className="panel" aria-labelledby="csv-heading">
          <h2 id="csv-heading">Import from CSV</h2>
          <p className="page__subtitle">
            Upload invoice lines as CSV. The whole file is checked first: a file with mistakes changes nothing
            and lists every one. <a href="/api/Import/Template">Download the template</a>.
          </p>
          <p className="import-columns">
            One row per invoice line, with a header row. Required columns: InvoiceDate (YYYY-MM-DD),
            InvoiceNumber, ClientCode, ItemCode, StockType (Subscription, Product or Hourly), Quantity, and
            Amount or UnitPrice. The template shows every column, the optional ones too (names, Cost for
            margin, Salesperson, service periods), with two example lines.
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
          {job && sentBefore ? (
            <p className="import-sent-before" role="note">
              {sentBefore} was uploaded before: nothing is imported again. What that upload did:
            </p>
          ) : null}
          {job && <JobProgress actor={job} />}
        </section>
      ) : null}
      {canImport ? <RecentImports refreshKey={jobsChanged} /> : null}
    </PageFrame>
  );
}
