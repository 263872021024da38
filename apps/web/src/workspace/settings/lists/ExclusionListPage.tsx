import { deleteExclusion, type ExclusionList, getExclusionByID, upsertExclusion } from "@varia/contracts";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useLocation, useNavigate, useParams } from "react-router";
import { api } from "../../../api";
import { PageFrame } from "../../../pages/PageFrame";
import { FieldErrors } from "../../../shell/FieldErrors";
import { FormMessage } from "../../../shell/FormMessage";
import { Icon } from "../../../ui/Icon";
import { LookupPicker, type LookupSearch } from "../../../ui/LookupPicker";
import { Breadcrumbs } from "../../navigation/Breadcrumbs";
import { type FormErrors, fieldMessages, formErrorsOf, noFormErrors, withoutField } from "../form-errors";
import { ConfirmDialog, SaveBar, useFocusFirstError } from "../settings-widgets";
import { listsPath, newListId } from "./ExclusionListsPage";
import { searchListEntries } from "./exclusion-search";
import "../data-settings.css";

/** A client or item on the list being edited: its code (what is saved), name and a detail. */
interface Entry {
  code: string;
  name: string;
  detail: string;
}

function entriesOf(list: ExclusionList): { clients: Entry[]; items: Entry[] } {
  const gone = " · no longer in the data";
  return {
    clients: list.clients.map((c) => ({
      code: c.code,
      name: c.name,
      detail: `${c.code}${c.clientID === null ? gone : ""}`,
    })),
    items: list.items.map((i) => ({
      code: i.code,
      name: i.name,
      detail: `${i.code}${i.stockType ? ` · ${i.stockType}` : gone}`,
    })),
  };
}

/** The clients or the items of a list: a picker to add one, and each with its Remove button. */
function EntryList({
  kind,
  label,
  entries,
  search,
  errors,
  onChange,
}: {
  kind: "clientCodes" | "itemCodes";
  label: "Clients" | "Items";
  entries: Entry[];
  search: LookupSearch;
  errors: FormErrors;
  onChange: (entries: Entry[]) => void;
}) {
  const singular = label === "Clients" ? "a client" : "an item";
  const headingId = `${kind}-heading`;
  // The picker starts afresh after each pick (empty, closed), with the focus back in it.
  const [picks, setPicks] = useState(0);
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    if (picks > 0) section.current?.querySelector<HTMLInputElement>(".lookup-picker__input")?.focus();
  }, [picks]);
  // A removed entry takes its Remove button with it: the focus goes to the entry now in its place
  // (the one after it, else the one before), or to the section's heading once the list is empty (not
  // to the picker, which would open its suggestions).
  const [removedAt, setRemovedAt] = useState<number | null>(null);
  useEffect(() => {
    if (removedAt === null) return;
    const buttons = section.current?.querySelectorAll<HTMLButtonElement>(".exclusion-entries__entry button");
    const next = buttons?.length ? buttons[Math.min(removedAt, buttons.length - 1)] : undefined;
    (next ?? section.current?.querySelector<HTMLElement>("h2"))?.focus();
    setRemovedAt(null);
  }, [removedAt]);
  return (
    <section ref={section} className="panel exclusion-entries" aria-labelledby={headingId}>
      <h2 id={headingId} tabIndex={-1}>
        {label} <span className="count-badge">{entries.length}</span>
      </h2>
      <LookupPicker
        key={picks}
        label={`Add ${singular}`}
        search={search}
        value={null}
        onChange={(option) => {
          if (!option) return;
          if (!entries.some((e) => e.code === option.key))
            onChange([
              ...entries,
              { code: option.key, name: option.label, detail: option.detail ?? option.key },
            ]);
          setPicks(picks + 1);
        }}
      />
      {entries.length === 0 ? (
        <p className="form__note">No {label.toLowerCase()} on this list.</p>
      ) : (
        <ul className="exclusion-entries__list" aria-label={`${label} on the list`}>
          {entries.map((entry, index) => (
            <li key={entry.code} className="exclusion-entries__entry">
              <span className="exclusion-entries__name">
                <span>{entry.name}</span>
                <span className="exclusion-entries__detail">{entry.detail}</span>
                <FieldErrors errors={fieldMessages(errors, `${kind}.${index}`)} />
              </span>
              <button
                type="button"
                className="button button--secondary button--small"
                aria-label={`Remove ${entry.name} (${entry.code})`}
                onClick={() => {
                  onChange(entries.filter((e) => e.code !== entry.code));
                  setRemovedAt(index);
                }}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * `/variance/settings/list/{exclusionHeaderID}` (and `…/new`): a list's name, whether it is active,
 * its clients and items (picked through Exclusion/GetClientList and GetSkuList), Save
 * (UpsertExclusion) and Delete with a confirmation. The call is marked `changesData`, so the client
 * forgets its cached answers and every dashboard shows the new numbers (docs/settings.md).
 */
export function ExclusionListPage() {
  const { exclusionHeaderID = newListId } = useParams();
  const isNew = exclusionHeaderID === newListId;
  const navigate = useNavigate();
  const [loaded, setLoaded] = useState<ExclusionList | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [name, setName] = useState("");
  const [active, setActive] = useState(true);
  const [clients, setClients] = useState<Entry[]>([]);
  const [items, setItems] = useState<Entry[]>([]);
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(noFormErrors);
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstError(form, errors);
  // A new list's first save moves to its own address, and its message comes along.
  const location = useLocation();
  const [saved, setSaved] = useState<string | null>(
    (location.state as { saved?: string } | null)?.saved ?? null,
  );
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const show = useCallback((list: ExclusionList) => {
    const entries = entriesOf(list);
    setLoaded(list);
    setName(list.name);
    setActive(list.active);
    setClients(entries.clients);
    setItems(entries.items);
  }, []);

  useEffect(() => {
    if (isNew) return;
    let current = true;
    api.call(getExclusionByID, { query: { exclusionID: exclusionHeaderID } }).then(
      (list) => current && show(list),
      (e: unknown) =>
        current &&
        setLoadError(
          (e as { status?: number }).status === 404 || (e as { status?: number }).status === 400
            ? "There is no such exclusion list."
            : "The exclusion list could not be loaded. Please try again.",
        ),
    );
    return () => {
      current = false;
    };
  }, [exclusionHeaderID, isNew, show]);

  const listId = isNew ? null : exclusionHeaderID;
  const searchClients = useMemo(() => searchListEntries("clients", listId), [listId]);
  const searchItems = useMemo(() => searchListEntries("items", listId), [listId]);

  const save = async () => {
    const trimmed = name.trim();
    if (!trimmed) {
      setErrors({ fields: { name: ["Please enter a name for the list"] }, message: null });
      return;
    }
    setSaving(true);
    setErrors(noFormErrors);
    setSaved(null);
    try {
      const list = await api.call(upsertExclusion, {
        body: {
          ...(listId ? { exclusionHeaderID: listId } : {}),
          name: trimmed,
          active,
          clientCodes: clients.map((c) => c.code),
          itemCodes: items.map((i) => i.code),
        },
      });
      show(list);
      const message = list.active
        ? "Saved. Every number now leaves out this list's clients and items."
        : "Saved. The list is inactive: its clients and items count in every number.";
      setSaved(message);
      if (isNew)
        navigate(`${listsPath}/${list.exclusionHeaderID}`, { replace: true, state: { saved: message } });
    } catch (e) {
      setErrors(formErrorsOf(e, "The list could not be saved. Please try again."));
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    setDeleting(true);
    setDeleteError(null);
    try {
      await api.call(deleteExclusion, { query: { exclusionID: exclusionHeaderID } });
      // The lists' page says what happened, as the users' and roles' pages do after a deletion.
      navigate(listsPath, {
        state: {
          message: `The exclusion list '${loaded?.name ?? name}' is deleted: its clients and items count again.`,
        },
      });
    } catch (e) {
      setDeleteError(formErrorsOf(e, "The list could not be deleted. Please try again.").message);
      setDeleting(false);
    }
  };

  const title = isNew ? "New Exclusion List" : (loaded?.name ?? "Exclusion List");
  const back = (
    <Breadcrumbs
      crumbs={[
        { level: 1, label: "Exclusion Lists", href: listsPath },
        { level: 2, label: title, href: `${listsPath}/${exclusionHeaderID}` },
      ]}
    />
  );

  if (loadError)
    return (
      <PageFrame title="Exclusion List" lead={back}>
        <FormMessage error={loadError} />
      </PageFrame>
    );
  if (!isNew && !loaded)
    return (
      <PageFrame title="Exclusion List" lead={back}>
        <div className="spinner spinner--page" role="status" aria-label="Loading" />
      </PageFrame>
    );

  const nameErrors = fieldMessages(errors, "name");
  return (
    <PageFrame
      title={title}
      lead={back}
      actions={
        isNew ? null : (
          <button
            type="button"
            className="button button--danger"
            disabled={saving}
            onClick={() => setConfirmDelete(true)}
          >
            Delete
          </button>
        )
      }
    >
      <form
        ref={form}
        className="exclusion-form"
        aria-label="Exclusion list"
        aria-busy={saving}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!saving) void save();
        }}
      >
        <fieldset className="exclusion-form__fields" disabled={saving}>
          <div className="panel">
            <label className="field">
              <span className="field__label">Name</span>
              <input
                name="name"
                value={name}
                maxLength={100}
                required
                aria-invalid={nameErrors.length > 0}
                aria-describedby={nameErrors.length ? "list-name-errors" : undefined}
                onChange={(event) => {
                  setName(event.target.value);
                  // A name typed answers the error under the field; the others stay.
                  setErrors((current) =>
                    fieldMessages(current, "name").length ? withoutField(current, "name") : current,
                  );
                }}
              />
              <span id="list-name-errors">
                <FieldErrors errors={nameErrors} />
              </span>
            </label>
            <label className="checkbox">
              <input type="checkbox" checked={active} onChange={(event) => setActive(event.target.checked)} />
              Active: leave this list's clients and items out of every number
            </label>
          </div>
          <div className="exclusion-form__columns">
            <EntryList
              kind="clientCodes"
              label="Clients"
              entries={clients}
              search={searchClients}
              errors={errors}
              onChange={setClients}
            />
            <EntryList
              kind="itemCodes"
              label="Items"
              entries={items}
              search={searchItems}
              errors={errors}
              onChange={setItems}
            />
          </div>
        </fieldset>
        <SaveBar saving={saving} errors={errors} saved={saved} icon={<Icon name="lists" size={16} />} />
      </form>
      {confirmDelete ? (
        <ConfirmDialog
          title="Delete this exclusion list?"
          confirmLabel="Delete list"
          busy={deleting}
          error={deleteError}
          onCancel={() => setConfirmDelete(false)}
          onConfirm={remove}
        >
          <p>
            '{loaded?.name}' and its {clients.length} {clients.length === 1 ? "client" : "clients"} and{" "}
            {items.length} {items.length === 1 ? "item" : "items"} will be deleted; they count again in every
            number at once.
          </p>
        </ConfirmDialog>
      ) : null}
    </PageFrame>
  );
}
