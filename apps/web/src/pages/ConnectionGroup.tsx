import { errorText } from "@varia/api-client";
import {
  addResponsibilities,
  type Connection,
  configureConnection,
  deleteResponsibility,
  getResponsibilities,
  type ResponsibleUser,
  type UserSummary,
} from "@varia/contracts";
import { type ReactNode, useCallback, useEffect, useState } from "react";
import { api } from "../api";
import { FormMessage } from "../shell/FormMessage";
import { SelectField } from "../ui/Select";
import { packageNames } from "./ScheduleFields";
import "./connection-group.css";

const day = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

/** What the provider calls what a connection reaches: QuickBooks companies, Xero organisations. */
function sourceNoun(connection: Connection, count: number): string {
  const one = connection.integrationType === "Quickbooks" ? "company" : "organisation";
  if (count === 1) return one;
  return one === "company" ? "companies" : "organisations";
}

/** Configure's outcome in words: the sources added and removed, or that nothing changed. */
export function configureOutcome(before: Connection, after: Connection): string {
  const known = new Set(before.dataSources.map((s) => s.id));
  const still = new Set(after.dataSources.map((s) => s.id));
  const added = after.dataSources.filter((s) => !known.has(s.id));
  const removed = before.dataSources.filter((s) => !still.has(s.id));
  const parts: string[] = [];
  if (added.length) {
    parts.push(
      `Found ${added.length} new ${sourceNoun(after, added.length)}: ${added.map((s) => s.name).join(", ")}.`,
    );
  }
  if (removed.length) {
    parts.push(
      `No longer reached, so removed: ${removed.map((s) => s.name).join(", ")}. The invoice lines imported from ${removed.length === 1 ? "it" : "them"} stay.`,
    );
  }
  return parts.length
    ? parts.join(" ")
    : `No change: ${packageNames[after.integrationType]} reaches the same ${sourceNoun(after, 2)}.`;
}

/**
 * Who is told when an import fails, as the server decides it: the responsible users who are not
 * disabled, else the admins, and those only for a scheduled import.
 * docs/integration.md, "When an import from a data source fails"
 */
function whoIsTold(responsible: ResponsibleUser[], users: UserSummary[] | null): ReactNode {
  const disabled = new Set(users?.filter((u) => u.disabled).map((u) => u.userID));
  const adminsTold =
    "the organisation's admins are e-mailed when a scheduled import fails; an import started by hand is followed on screen and e-mails nobody";
  if (responsible.length === 0) return `Nobody is responsible: ${adminsTold}.`;
  const names = responsible
    .map((u) => (disabled.has(u.userID) ? `${u.name} (disabled: not e-mailed)` : u.name))
    .join(", ");
  if (responsible.every((u) => disabled.has(u.userID)))
    return `Responsible: ${names}. As none is active, ${adminsTold}.`;
  return `E-mailed when an import fails: ${names}.`;
}

/**
 * The users responsible for a connection: named, and changed here (Connections/AddResponsibilities
 * and DeleteResponsibility) by choosing among the organisation's users.
 */
function Responsibilities({ connection, users }: { connection: Connection; users: UserSummary[] | null }) {
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
    .map((u) => ({ value: u.userID, label: u.disabled ? `${u.name} (disabled)` : u.name }));
  return (
    <div className="connection__responsible">
      <div className="data-source__head">
        <p className="data-source__meta">
          {responsible ? whoIsTold(responsible, users) : "Loading who is told when an import fails…"}
        </p>
        {editing ? null : (
          <button type="button" className="button button--secondary" onClick={() => setEditing(true)}>
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
          {users === null ? (
            <p className="data-source__meta">
              The organisation's users are listed only to a user who may manage users.
            </p>
          ) : (
            <div className="panel__row connection__add">
              <SelectField
                label="Add a responsible user"
                options={options}
                value={chosen}
                onChange={setChosen}
                placeholder={options.length ? "Choose a user" : "Every user is responsible"}
              />
              <button
                type="button"
                className="button button--primary"
                disabled={busy || !chosen}
                onClick={add}
              >
                {busy ? <span className="spinner" aria-hidden="true" /> : null}
                Add
              </button>
            </div>
          )}
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
  children,
}: {
  connection: Connection;
  /** The organisation's users to choose from; null when the caller may not list them. */
  users: UserSummary[] | null;
  /** After Configure: the sources to list again. */
  onChanged: () => void;
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
      <Responsibilities connection={connection} users={users} />
      {children}
    </section>
  );
}
