import { errorText } from "@varia/api-client";
import {
  addResponsibilities,
  type Connection,
  configureConnection,
  deleteResponsibility,
  getResponsibilities,
  type ResponsibleUser,
} from "@varia/contracts";
import { type ReactNode, useCallback, useEffect, useState } from "react";
import { api } from "../api";
import { FormMessage } from "../shell/FormMessage";
import { SelectField } from "../ui/Select";
import { configureOutcome, sourceNoun, whoIsTold } from "./connection-words";
import { packageNames } from "./ScheduleFields";
import "./connection-group.css";

const day = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

/**
 * The users responsible for a connection: named, and changed here (Connections/AddResponsibilities
 * and DeleteResponsibility) by choosing among the organisation's users
 * (Connections/GetResponsibilityCandidates).
 */
function Responsibilities({
  connection,
  users,
  onEdit,
}: {
  connection: Connection;
  users: ResponsibleUser[] | null;
  onEdit: () => void;
}) {
  const integrationGuid = connection.integrationGuid;
  const [responsible, setResponsible] = useState<ResponsibleUser[] | null>(null);
  const [editing, setEditing] = useState(false);
  const [chosen, setChosen] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    api
      .call(getResponsibilities, { params: { integrationGuid } })
      .then(setResponsible, (e) => setError(errorText(e)));
  }, [integrationGuid]);
  useEffect(load, [load]);

  const act = async (call: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await call();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const add = () =>
    act(async () => {
      setResponsible(
        await api.call(addResponsibilities, { params: { integrationGuid }, body: { userIDs: [chosen] } }),
      );
      setChosen("");
    });
  const remove = (userID: string) =>
    act(async () => {
      await api.call(deleteResponsibility, { params: { integrationGuid }, query: { userID } });
      setResponsible((before) => before?.filter((u) => u.userID !== userID) ?? null);
    });

  const taken = new Set(responsible?.map((u) => u.userID));
  const options = (users ?? [])
    .filter((u) => !taken.has(u.userID))
    .map((u) => ({ value: u.userID, label: u.disabled ? `${u.name} (disabled)` : u.name }))
    .sort((a, b) => a.label.localeCompare(b.label));
  return (
    <div className="connection__responsible">
      <div className="data-source__head">
        <p className="data-source__meta">
          {responsible ? whoIsTold(responsible) : "Loading who is told when an import fails…"}
        </p>
        {editing ? null : (
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              onEdit();
              setEditing(true);
            }}
          >
            Change who is told
          </button>
        )}
      </div>
      {editing && responsible ? (
        <fieldset className="boxed-fieldset connection__editor">
          <legend>Who is e-mailed when an import fails</legend>
          {responsible.length ? (
            <ul className="connection__users" aria-label="Responsible users">
              {responsible.map((u) => (
                <li key={u.userID}>
                  <span>
                    {u.name} <span className="data-source__meta">{u.email}</span>
                  </span>
                  <button
                    type="button"
                    className="button button--secondary"
                    disabled={busy}
                    aria-label={`Remove ${u.name}`}
                    onClick={() => remove(u.userID)}
                  >
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
          <div className="panel__row connection__add">
            <SelectField
              label="Add a responsible user"
              options={options}
              value={chosen}
              onChange={setChosen}
              placeholder={
                users === null
                  ? "Loading the users…"
                  : options.length
                    ? "Choose a user"
                    : "Every user is responsible"
              }
            />
            <button type="button" className="button button--primary" disabled={busy || !chosen} onClick={add}>
              {busy ? <span className="spinner" aria-hidden="true" /> : null}
              Add
            </button>
          </div>
          <div className="panel__row">
            <button type="button" className="button button--secondary" onClick={() => setEditing(false)}>
              Done
            </button>
          </div>
        </fieldset>
      ) : null}
      <FormMessage error={error} />
    </div>
  );
}

/**
 * One connection of the organisation (docs/integration.md, "Connections in the API"): its package,
 * since when, who is told when an import fails, Look for new organisations (Connections/Configure),
 * and its data sources (`children`).
 */
export function ConnectionGroup({
  connection,
  users,
  onChanged,
  onEditResponsible,
  children,
}: {
  connection: Connection;
  /** The organisation's users to choose from (Connections/GetResponsibilityCandidates); null until asked for. */
  users: ResponsibleUser[] | null;
  /** After Configure: the sources to list again. */
  onChanged: () => void;
  /** When the responsible users are about to be changed: the users to choose from loaded again. */
  onEditResponsible: () => void;
  children: ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const name = packageNames[connection.integrationType];
  const count = connection.dataSources.length;

  const configure = async () => {
    setBusy(true);
    setError(null);
    setOutcome(null);
    try {
      const after = await api.call(configureConnection, {
        params: { integrationGuid: connection.integrationGuid },
      });
      setOutcome(configureOutcome(connection, after));
      onChanged();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const headingId = `connection-${connection.integrationGuid}`;
  return (
    <section className="connection" aria-labelledby={headingId}>
      <div className="data-source__head">
        <div>
          <h3 id={headingId}>{name} connection</h3>
          <p className="data-source__meta">
            Connected since {day.format(new Date(connection.connectedAt))} · {count}{" "}
            {sourceNoun(connection, count)}
          </p>
        </div>
        <button type="button" className="button button--secondary" disabled={busy} onClick={configure}>
          {busy ? <span className="spinner spinner--dark" aria-hidden="true" /> : null}
          Look for new {sourceNoun(connection, 2)}
        </button>
      </div>
      <FormMessage error={error} success={outcome} />
      <Responsibilities connection={connection} users={users} onEdit={onEditResponsible} />
      {children}
    </section>
  );
}
