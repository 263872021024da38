import { errorText } from "@varia/api-client";
import {
  addSchedule,
  type Connection,
  type DataSource,
  deleteConnection,
  describeSchedule,
  getDataSources,
  getResponsibilityCandidates,
  getTimeZones,
  listConnections,
  type ResponsibleUser,
  runSchedule,
  type TimeZone,
} from "@varia/contracts";
import type { DropdownOption } from "@varia/machines";
import { useCallback, useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { createActor } from "xstate";
import { api } from "../api";
import { FormMessage } from "../shell/FormMessage";
import { StartupContext } from "../shell/startup-context";
import { afterDataChanged } from "../workspace/refresh-periods";
import { ConfirmDialog } from "../workspace/settings/settings-widgets";
import { ConnectButtons } from "./ConnectButtons";
import { ConnectionGroup } from "./ConnectionGroup";
import { appImportJobMachine } from "./import-job-actor";
import { type JobActor, JobProgress } from "./JobProgress";
import { defaultSchedule, packageNames, type Schedule, ScheduleFields } from "./ScheduleFields";

/** One data source: its schedule in words, its last import, Import now, and the schedule's editor. */
function SourceRow({
  source,
  connectionSources,
  onSaved,
  onJobChanged,
}: {
  source: DataSource;
  /** The names of every source of the same connection: a disconnection ends them all. */
  connectionSources: string[];
  onSaved: () => void;
  /** An import of it was queued or has ended. */
  onJobChanged?: () => void;
}) {
  const [disconnecting, setDisconnecting] = useState(false);
  const [disconnectBusy, setDisconnectBusy] = useState(false);
  const [disconnectError, setDisconnectError] = useState<string | null>(null);
  const disconnect = async () => {
    setDisconnectBusy(true);
    setDisconnectError(null);
    try {
      await api.call(deleteConnection, { params: { integrationGuid: source.integrationGuid } });
      setDisconnecting(false);
      onSaved();
    } catch (e) {
      setDisconnectError(errorText(e));
    } finally {
      setDisconnectBusy(false);
    }
  };
  const startup = StartupContext.useActorRef();
  const [job, setJob] = useState<JobActor | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const [editing, setEditing] = useState(false);
  const [zones, setZones] = useState<TimeZone[]>([]);
  const [zone, setZone] = useState<DropdownOption | null>(null);
  const [saving, setSaving] = useState(false);
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC";
  const [schedule, setSchedule] = useState<Schedule>(source.schedule ?? defaultSchedule());

  const follow = useCallback(
    (jobGuid: string) => {
      const actor = createActor(appImportJobMachine, { input: { jobGuid } });
      actor.subscribe((snapshot) => {
        if (snapshot.status !== "done") return;
        afterDataChanged(startup);
        onJobChanged?.();
      });
      actor.start();
      setJob((before) => {
        before?.stop();
        return actor;
      });
    },
    [startup, onJobChanged],
  );
  // The last import, as it stands (or as it runs).
  useEffect(() => {
    if (source.lastJobGuid) follow(source.lastJobGuid);
  }, [follow, source.lastJobGuid]);

  const importNow = async () => {
    setRunning(true);
    setError(null);
    try {
      follow((await api.call(runSchedule, { body: { dataSourceId: source.id } })).jobGuid);
      onJobChanged?.();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setRunning(false);
    }
  };

  const edit = async () => {
    setEditing(true);
    setError(null);
    const all = await api.call(getTimeZones);
    setZones(all);
    const id = source.schedule?.timeZone ?? browserZone;
    const known = all.find((z) => z.id === id);
    setZone(known ? { key: known.id, label: known.name } : null);
  };

  const save = async () => {
    if (!zone) {
      setError("Fill in all info please");
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await api.call(addSchedule, {
        body: {
          ...schedule,
          dayOfMonth: schedule.interval === "Monthly" ? schedule.dayOfMonth : null,
          dayOfWeek: schedule.interval === "Weekly" ? schedule.dayOfWeek : null,
          dataSourceId: source.id,
          timeZone: zone.key,
        },
      });
      setEditing(false);
      onSaved();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setSaving(false);
    }
  };

  const headingId = `source-${source.id}`;
  return (
    <article className="data-source" aria-labelledby={headingId}>
      <div className="data-source__head">
        <div>
          <h4 id={headingId}>{source.name}</h4>
          <p className="data-source__meta">
            {packageNames[source.integrationType]} ·{" "}
            {source.schedule
              ? `imported ${describeSchedule(source.schedule)} (${source.schedule.timeZone})`
              : "no schedule: imported only when asked"}
          </p>
        </div>
        <div className="data-source__actions">
          <button type="button" className="button button--primary" disabled={running} onClick={importNow}>
            {running ? <span className="spinner" aria-hidden="true" /> : null}
            Import now
          </button>
          {editing ? null : (
            <button type="button" className="button button--secondary" onClick={edit}>
              Change schedule
            </button>
          )}
          <button type="button" className="button button--secondary" onClick={() => setDisconnecting(true)}>
            Disconnect
          </button>
        </div>
      </div>
      {disconnecting ? (
        <ConfirmDialog
          title={`Disconnect ${packageNames[source.integrationType]}?`}
          confirmLabel="Disconnect"
          busy={disconnectBusy}
          error={disconnectError}
          onCancel={() => setDisconnecting(false)}
          onConfirm={disconnect}
        >
          <p>
            Varia stops reading {connectionSources.join(", ")} and forgets its access to{" "}
            {packageNames[source.integrationType]}; the schedules go with it. The invoice lines already
            imported stay. You can connect again at any time.
          </p>
        </ConfirmDialog>
      ) : null}
      {editing ? (
        <div className="form data-source__editor">
          <ScheduleFields
            schedule={schedule}
            onChange={(change) => setSchedule((s) => ({ ...s, ...change }))}
            zones={zones}
            zone={zone}
            onZoneChange={setZone}
            sourceName={source.name}
            disabled={saving}
          />
          <div className="panel__row">
            <button type="button" className="button button--primary" disabled={saving} onClick={save}>
              {saving ? <span className="spinner" aria-hidden="true" /> : null}
              Save schedule
            </button>
            <button type="button" className="button button--secondary" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
      <FormMessage error={error} />
      {job ? <JobProgress actor={job} /> : null}
    </article>
  );
}

/** Whether a failed call was refused for want of an ability (403). */
const forbidden = (e: unknown) => (e as { status?: number }).status === 403;

/**
 * The integration overview's accounting package (docs/integration.md): each connection, with who is
 * told when an import fails and Look for new organisations, and under it each company or
 * organisation it reaches, with its schedule, its last import and Import now. Hidden from a user
 * without Integration/Connections/Manage.
 */
export function DataSourcesPanel({ onJobChanged }: { onJobChanged?: () => void } = {}) {
  const [sources, setSources] = useState<DataSource[] | null>(null);
  const [connections, setConnections] = useState<Connection[]>([]);
  // The users to choose responsible ones from (Connections/GetResponsibilityCandidates): asked for
  // only when someone opens Change who is told (null until then); the responsible users name
  // themselves, a disabled one included.
  const [users, setUsers] = useState<ResponsibleUser[] | null>(null);
  const [hidden, setHidden] = useState(false);
  // A refused connection comes back with the reason (Auth/SingleSignOnCallback).
  const [search] = useSearchParams();
  const [error, setError] = useState<string | null>(search.get("error"));
  const load = useCallback(() => {
    Promise.all([api.call(getDataSources, { query: {} }), api.call(listConnections)]).then(
      ([s, c]) => {
        setConnections(c);
        setSources(s);
      },
      (e) => {
        if (forbidden(e)) setHidden(true);
        else setError(errorText(e));
      },
    );
  }, []);
  useEffect(load, [load]);
  // Asked for each time the responsible users are about to be changed: a user added since is offered.
  const loadUsers = useCallback(() => {
    api.call(getResponsibilityCandidates).then(setUsers, (e) => {
      if (!forbidden(e)) setError(errorText(e));
    });
  }, []);
  if (hidden) return null;

  const rows = (list: DataSource[]) =>
    list.map((s) => (
      <SourceRow
        key={s.id}
        source={s}
        connectionSources={list.filter((o) => o.integrationGuid === s.integrationGuid).map((o) => o.name)}
        onSaved={load}
        onJobChanged={onJobChanged}
      />
    ));
  const grouped = new Set(connections.map((c) => c.integrationGuid));
  return (
    <section className="panel" aria-labelledby="sources-heading">
      <div className="data-source__head">
        <h2 id="sources-heading">Accounting package</h2>
        <ConnectButtons onError={setError} />
      </div>
      <FormMessage error={error} />
      {sources === null && !error ? (
        <p className="page__subtitle" role="status">
          <span className="spinner spinner--dark" aria-hidden="true" /> Loading your data sources…
        </p>
      ) : null}
      {sources?.length === 0 && connections.length === 0 ? (
        <p className="page__subtitle">
          No accounting package is connected: this organisation imports from CSV files. Connect QuickBooks
          Online or Xero to read its invoices from there, now and on a schedule.
        </p>
      ) : null}
      {sources
        ? connections.map((c) => (
            <ConnectionGroup
              key={c.integrationGuid}
              connection={c}
              users={users}
              onChanged={load}
              onEditResponsible={loadUsers}
            >
              {rows(sources.filter((s) => s.integrationGuid === c.integrationGuid))}
            </ConnectionGroup>
          ))
        : null}
      {/* A source of a connection made between the two calls. */}
      {sources ? rows(sources.filter((s) => !grouped.has(s.integrationGuid))) : null}
    </section>
  );
}
