import {
  type Backup,
  backupCreate,
  backupDelete,
  backupDownload,
  backupList,
  backupReason,
  backupRestore,
  deleteAlsoLoses,
  restoredLinesSentence,
  restoreSummary,
} from "@varia/contracts";
import { selectJob, selectJobCompleted, selectJobFinished, selectJobLabel } from "@varia/machines";
import { useSelector } from "@xstate/react";
import { useCallback, useEffect, useState } from "react";
import { type ActorRefFrom, createActor } from "xstate";
import { api } from "../../../api";
import { appImportJobMachine } from "../../../pages/import-job-actor";
import { EmptyState, PageFrame } from "../../../pages/PageFrame";
import { FormMessage } from "../../../shell/FormMessage";
import { StartupContext } from "../../../shell/startup-context";
import { type Format, useFormat } from "../../../ui/format";
import { Icon } from "../../../ui/Icon";
import { saveBytes } from "../../../ui/save-file";
import { byteSize } from "../../export/DataExportPage";
import { afterDataChanged } from "../../refresh-periods";
import { dateTime } from "../date-time";
import { formErrorsOf } from "../form-errors";
import { ConfirmDialog } from "../settings-widgets";
import { useFocusBack } from "../use-focus-back";
import "../data-settings.css";

type RestoreActor = ActorRefFrom<typeof appImportJobMachine>;

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Why a backup was taken, as a table's cell says it (`backupReason`, capitalised). */
const why = (b: Backup) => capitalised(backupReason(b));

const lines = (n: number, format: Format) => `${format.count(n)} invoice ${n === 1 ? "line" : "lines"}`;

/**
 * What a backup holds: all the lines, or, taken before an import, only those the import replaced
 * (none, when it only added lines, as a first import does).
 */
const held = (b: Backup, format: Format) => {
  if (b.reason !== "BeforeImport") return lines(b.lineCount, format);
  return b.lineCount === 0
    ? "no invoice lines, as that import replaced none"
    : `the ${lines(b.lineCount, format)} that import replaced`;
};

/** The restore job as it runs (Import/GetJobStatus every 5 s), then its outcome. */
function RestoreProgress({ actor, backup }: { actor: RestoreActor; backup: Backup }) {
  const format = useFormat();
  const label = useSelector(actor, selectJobLabel);
  const job = useSelector(actor, selectJob);
  const finished = useSelector(actor, selectJobFinished);
  const completed = useSelector(actor, selectJobCompleted);
  return (
    <div className="job-progress" role="status" aria-live="polite">
      <p className={`job-progress__label${finished ? (completed ? " is-done" : " is-failed") : ""}`}>
        {!finished && <span className="spinner spinner--dark" aria-hidden="true" />}
        Restoring the backup of {dateTime(backup.createdAt, format, { seconds: true })}: {label}
      </p>
      {completed && job ? (
        <p>
          Restored: {restoredLinesSentence(job.rowsImported ?? 0, format.count)}. Every screen shows the
          restored data.
        </p>
      ) : null}
      {finished && !completed && job?.message ? <p>{job.message}</p> : null}
    </div>
  );
}

/** The confirmation of a restore: what it replaces, and the imports and restores it undoes. */
function RestoreDialog({
  backup,
  backups,
  onCancel,
  onConfirm,
  busy,
  error,
}: {
  backup: Backup;
  backups: Backup[];
  onCancel: () => void;
  onConfirm: () => void;
  busy: boolean;
  error: string | null;
}) {
  const format = useFormat();
  const { importsUndone, restoresUndone } = restoreSummary(backups, backup);
  return (
    <ConfirmDialog
      title="Restore this backup?"
      confirmLabel="Restore backup"
      busy={busy}
      error={error}
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <p>
        The organisation's invoice lines, clients, items and salespeople as they are now will be replaced by
        the backup of <strong>{dateTime(backup.createdAt, format, { seconds: true })}</strong> (
        {backupReason(backup)}, {held(backup, format)}).
      </p>
      {importsUndone.length || restoresUndone.length ? (
        <>
          <p>This undoes:</p>
          <ul className="restore-undone">
            {importsUndone.map((b) => (
              <li key={b.backupID}>
                the import {b.importFileName ? `of ${b.importFileName} ` : ""}at{" "}
                {dateTime(b.createdAt, format, { seconds: true })}
              </li>
            ))}
            {restoresUndone.map((b) => (
              <li key={b.backupID}>the restore of {dateTime(b.createdAt, format, { seconds: true })}</li>
            ))}
          </ul>
        </>
      ) : (
        <p>No import or restore has been made since this backup was taken.</p>
      )}
      <p className="form__note">
        A backup of the data as it is now is taken first, so this restore can be undone. Exclusion lists and
        the organisation's settings do not change.
      </p>
    </ConfirmDialog>
  );
}

/**
 * `/variance/settings/backup`: the organisation's backups (Backup/BackupList, newest first), a new
 * one made by hand, each downloaded as its portable file, restored (as a job, after a confirmation
 * naming the imports it undoes) or deleted. Restoring and deleting are for admins.
 */
export function BackupsPage() {
  const format = useFormat();
  const isAdmin = StartupContext.useSelector((s) => s.context.userIsAdmin);
  const startup = StartupContext.useActorRef();
  const [backups, setBackups] = useState<Backup[] | null>(null);
  const [message, setMessage] = useState<{ error?: string | null; success?: string | null }>({});
  const [creating, setCreating] = useState(false);
  const holdFocus = useFocusBack(creating);
  const [downloading, setDownloading] = useState<string | null>(null);
  const holdDownloadFocus = useFocusBack(downloading !== null);
  const [confirm, setConfirm] = useState<{ kind: "restore" | "delete"; backup: Backup } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const [restore, setRestore] = useState<{ actor: RestoreActor; backup: Backup } | null>(null);
  const restoring = useSelector(restore?.actor, (s) => (s ? !selectJobFinished(s) : false)) ?? false;

  const reload = useCallback(async () => {
    try {
      setBackups(await api.call(backupList));
    } catch {
      setMessage({ error: "The backups could not be loaded. Please try again." });
    }
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);
  useEffect(() => () => restore?.actor.stop(), [restore]);

  const create = async () => {
    holdFocus();
    setCreating(true);
    setMessage({});
    try {
      const taken = await api.call(backupCreate);
      setMessage({ success: `Backup taken: ${lines(taken.lineCount, format)}.` });
      await reload();
    } catch (e) {
      setMessage({ error: formErrorsOf(e, "The backup could not be taken. Please try again.").message });
    } finally {
      setCreating(false);
    }
  };

  const download = async (backup: Backup) => {
    holdDownloadFocus();
    setDownloading(backup.backupID);
    setMessage({});
    try {
      const file = await api.download(backupDownload, { query: { backupID: backup.backupID } });
      saveBytes(file.fileName ?? "varia-backup.json.gz", file.body, "application/gzip");
    } catch (e) {
      setMessage({ error: formErrorsOf(e, "The backup could not be downloaded. Please try again.").message });
    } finally {
      setDownloading(null);
    }
  };

  const confirmed = async () => {
    if (!confirm) return;
    setConfirming(true);
    setConfirmError(null);
    try {
      if (confirm.kind === "delete") {
        await api.call(backupDelete, { query: { backupID: confirm.backup.backupID } });
        setMessage({
          success: `The backup of ${dateTime(confirm.backup.createdAt, format, { seconds: true })} is deleted.`,
        });
        await reload();
      } else {
        const queued = await api.call(backupRestore, { query: { backupID: confirm.backup.backupID } });
        const actor = createActor(appImportJobMachine, { input: { jobGuid: queued.jobGuid } });
        actor.subscribe((snapshot) => {
          if (snapshot.status !== "done") return;
          // The data changed under every cached answer and perhaps its months: forget them, ask for
          // the months again, then show the new list.
          afterDataChanged(startup);
          void reload();
        });
        actor.start();
        setMessage({});
        setRestore({ actor, backup: confirm.backup });
      }
      setConfirm(null);
    } catch (e) {
      setConfirmError(formErrorsOf(e, "That did not work. Please try again.").message);
    } finally {
      setConfirming(false);
    }
  };

  const busy = creating || restoring;
  return (
    <PageFrame
      title="Backups"
      actions={
        <button type="button" className="button button--primary" disabled={busy} onClick={create}>
          {creating ? <span className="spinner" aria-hidden="true" /> : <Icon name="backups" size={16} />}
          {creating ? "Creating backup…" : "Create backup"}
        </button>
      }
    >
      <p className="page__subtitle">
        A backup is taken before every import, and whenever you make one. Backups made by hand are kept; of
        those taken before imports, the organisation's settings say how many are kept. One taken before an
        import holds only the lines that import replaced: restoring it undoes that import and every newer one.
        {isAdmin ? "" : " Only an admin can restore or delete a backup."}
      </p>
      {restore ? <RestoreProgress actor={restore.actor} backup={restore.backup} /> : null}
      <FormMessage error={message.error} success={message.success} />
      {backups === null && !message.error ? (
        <div className="spinner spinner--page" role="status" aria-label="Loading" />
      ) : null}
      {backups?.length === 0 ? (
        <EmptyState title="No backups yet">
          <p>One is taken before every import; Create backup makes one now.</p>
        </EmptyState>
      ) : null}
      {backups?.length ? (
        <div className="panel">
          <table className="data-table backups-table" aria-label="Backups">
            <thead>
              <tr>
                <th scope="col">Taken</th>
                <th scope="col">Why</th>
                <th scope="col" className="number">
                  Lines held
                </th>
                <th scope="col" className="number">
                  Size
                </th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {backups.map((b) => {
                const when = dateTime(b.createdAt, format, { seconds: true });
                return (
                  <tr key={b.backupID}>
                    <th scope="row">{when}</th>
                    <td className="backup-why">{why(b)}</td>
                    <td className="number" data-label="Lines held">
                      {format.count(b.lineCount)}
                    </td>
                    <td className="number" data-label="Size">
                      {byteSize(b.sizeBytes, format)}
                    </td>
                    <td>
                      <div className="backup-actions">
                        <button
                          type="button"
                          className="button button--secondary button--small"
                          aria-label={`Download the backup of ${when}`}
                          disabled={downloading === b.backupID}
                          onClick={() => download(b)}
                        >
                          <Icon name="download" size={16} />
                          {downloading === b.backupID ? "Downloading…" : "Download"}
                        </button>
                        {isAdmin ? (
                          <>
                            <button
                              type="button"
                              className="button button--secondary button--small"
                              aria-label={`Restore the backup of ${when}`}
                              disabled={busy}
                              onClick={() => {
                                setConfirmError(null);
                                setConfirm({ kind: "restore", backup: b });
                              }}
                            >
                              Restore
                            </button>
                            <button
                              type="button"
                              className="button button--danger button--small"
                              aria-label={`Delete the backup of ${when}`}
                              disabled={busy}
                              onClick={() => {
                                setConfirmError(null);
                                setConfirm({ kind: "delete", backup: b });
                              }}
                            >
                              Delete
                            </button>
                          </>
                        ) : null}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      {confirm?.kind === "restore" && backups ? (
        <RestoreDialog
          backup={confirm.backup}
          backups={backups}
          busy={confirming}
          error={confirmError}
          onCancel={() => setConfirm(null)}
          onConfirm={confirmed}
        />
      ) : null}
      {confirm?.kind === "delete" ? (
        <ConfirmDialog
          title="Delete this backup?"
          confirmLabel="Delete backup"
          busy={confirming}
          error={confirmError}
          onCancel={() => setConfirm(null)}
          onConfirm={confirmed}
        >
          <p>
            The backup of <strong>{dateTime(confirm.backup.createdAt, format, { seconds: true })}</strong> (
            {backupReason(confirm.backup)}, {held(confirm.backup, format)}) will be deleted; its data can no
            longer be restored.
          </p>
          {deleteAlsoLoses(backups ?? [], confirm.backup) ? (
            <p>
              {capitalised(deleteAlsoLoses(backups ?? [], confirm.backup))}. Backups made by hand or before a
              restore still can.
            </p>
          ) : null}
        </ConfirmDialog>
      ) : null}
    </PageFrame>
  );
}
