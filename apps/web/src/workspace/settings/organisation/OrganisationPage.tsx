import {
  type CurrencyKey,
  currencies,
  getSubscriptionSettings,
  getTimeZones,
  itemCategories,
  lookupSkuList,
  type mfaPolicies,
  putSubscriptionSettings,
  type SubscriptionSettings,
  type TimeZone,
} from "@varia/contracts";
import { type InputHTMLAttributes, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { api } from "../../../api";
import { PageFrame } from "../../../pages/PageFrame";
import { FieldErrors } from "../../../shell/FieldErrors";
import { FormMessage } from "../../../shell/FormMessage";
import { StartupContext } from "../../../shell/startup-context";
import { createFormat, useFormat } from "../../../ui/format";
import { LookupPicker, type LookupSearch } from "../../../ui/LookupPicker";
import { Segmented } from "../../../ui/Segmented";
import { SelectField } from "../../../ui/Select";
import { searchTimeZones } from "../../../ui/time-zone-search";
import { dateTime } from "../date-time";
import { type FormErrors, fieldMessages, formErrorsOf, noFormErrors, withoutField } from "../form-errors";
import { SaveBar, useFocusFirstError } from "../settings-widgets";
import "../data-settings.css";

type Category = (typeof itemCategories)[number];
type MfaPolicy = (typeof mfaPolicies)[number];

/** An item with a category of its own, as the form edits it. */
interface ItemCategory {
  code: string;
  name: string;
  detail: string;
  category: Category;
}

const categoryOptions = itemCategories.map((c) => ({ value: c, label: c === "Adhoc" ? "Ad hoc" : c }));
const mfaOptions: { value: MfaPolicy; label: string }[] = [
  { value: "off", label: "Off" },
  { value: "optional", label: "Optional" },
  { value: "required", label: "Required" },
];
const mfaNotes: Record<MfaPolicy, string> = {
  off: "Sign-in asks for no code, unless a user has set up multi-factor authentication.",
  optional: "Sign-in offers to set up multi-factor authentication; a user may skip it.",
  required:
    "Every user gives a code at sign-in. Saving ends the sessions of users without multi-factor authentication (not yours): they set it up at their next sign-in.",
};
const categoryNotes: Record<Category, string> = {
  Recurring: "counts in MRR",
  Adhoc: "shown apart, never in MRR",
  Exclude: "left out of everything",
};

/** Items of the organisation to give a category (Lookup/GetSkuList), by code. */
const searchItemsByCode: LookupSearch = async (text, startRow, rowLimit) => {
  const page = await api.call(lookupSkuList, { body: { search: text || null, startRow, rowLimit } });
  return {
    options: page.rows.map((r) => ({ key: r.code, label: r.name, detail: `${r.code} · ${r.stockType}` })),
    total: page.rowCount,
  };
};

function TextField({
  label,
  name,
  value,
  errors,
  note,
  onChange,
  ...input
}: {
  label: string;
  name: string;
  value: string;
  errors: string[];
  note?: string;
  onChange: (value: string) => void;
} & Pick<InputHTMLAttributes<HTMLInputElement>, "type" | "min" | "max" | "maxLength" | "inputMode">) {
  const describedBy = [note ? `${name}-note` : "", errors.length ? `${name}-errors` : ""].join(" ").trim();
  return (
    <label className="field">
      <span className="field__label">{label}</span>
      <input
        name={name}
        value={value}
        required
        aria-invalid={errors.length > 0}
        aria-describedby={describedBy || undefined}
        onChange={(event) => onChange(event.target.value)}
        {...input}
      />
      {note ? (
        <span id={`${name}-note`} className="form__note">
          {note}
        </span>
      ) : null}
      <span id={`${name}-errors`}>
        <FieldErrors errors={errors} />
      </span>
    </label>
  );
}

/**
 * `/variance/settings/org`: the organisation's name, currency (money on every screen is written in
 * its forced locale), default and item categories, MFA policy, time zone, how many automatic
 * backups are kept, and the terms versions (OrganisationSettings/SubscriptionSettings, Currencies,
 * System/GetTimeZones; docs/settings.md). Saving replaces the settings as a whole; the PUT is
 * `changesData`, so figures cached before it are forgotten.
 */
export function OrganisationPage() {
  const format = useFormat();
  const startup = StartupContext.useActorRef();
  const [settings, setSettings] = useState<SubscriptionSettings | null>(null);
  const [currencyList, setCurrencyList] = useState<{ key: string; name: string; forcedLocale: string }[]>([]);
  const [zones, setZones] = useState<TimeZone[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);

  const [organisationName, setOrganisationName] = useState("");
  const [currencyCode, setCurrencyCode] = useState("USD");
  const [defaultCategory, setDefaultCategory] = useState<Category>("Recurring");
  const [items, setItems] = useState<ItemCategory[]>([]);
  const [mfaPolicy, setMfaPolicy] = useState<MfaPolicy>("optional");
  const [timeZone, setTimeZone] = useState<string>("UTC");
  const [backupsToKeep, setBackupsToKeep] = useState("10");
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(noFormErrors);
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstError(form, errors);
  // Editing a field answers its errors; the others stay until the next save.
  const clearErrorsOf = (field: string) =>
    setErrors((current) => (fieldMessages(current, field).length ? withoutField(current, field) : current));
  const [saved, setSaved] = useState<string | null>(null);

  const show = useCallback((answer: SubscriptionSettings) => {
    setSettings(answer);
    setOrganisationName(answer.organisationName);
    setCurrencyCode(answer.currencyCode);
    setDefaultCategory(answer.defaultCategory);
    setItems(
      answer.itemCategories.map((i) => ({
        code: i.code,
        name: i.name,
        detail: `${i.code} · ${i.stockType}`,
        category: i.category,
      })),
    );
    setMfaPolicy(answer.mfaPolicy);
    setTimeZone(answer.timeZone);
    setBackupsToKeep(String(answer.backupsToKeep));
  }, []);

  useEffect(() => {
    let current = true;
    Promise.all([api.call(getSubscriptionSettings), api.call(currencies), api.call(getTimeZones)]).then(
      ([answer, currencyAnswer, zoneAnswer]) => {
        if (!current) return;
        setCurrencyList(currencyAnswer.supportedCurrencies);
        setZones(zoneAnswer);
        show(answer);
      },
      () => current && setLoadError("The organisation's settings could not be loaded. Please try again."),
    );
    return () => {
      current = false;
    };
  }, [show]);

  const searchZones = useMemo(() => searchTimeZones(zones), [zones]);
  const zoneOption = useMemo(() => {
    if (!timeZone) return null;
    const zone = zones.find((z) => z.id === timeZone);
    return { key: timeZone, label: zone?.name ?? timeZone };
  }, [zones, timeZone]);
  const currency = currencyList.find((c) => c.key === currencyCode);
  const example = createFormat({ currency: currencyCode, forcedLocale: currency?.forcedLocale ?? null });

  const validate = (): FormErrors => {
    const fields: Record<string, string[]> = {};
    if (!organisationName.trim()) fields.organisationName = ["Please enter the organisation's name"];
    const keep = Number(backupsToKeep);
    if (!/^\d+$/.test(backupsToKeep.trim()) || keep < 1 || keep > 100)
      fields.backupsToKeep = ["Please enter a whole number from 1 to 100"];
    if (!zones.some((z) => z.id === timeZone)) fields.timeZone = ["Please choose a time zone"];
    return Object.keys(fields).length
      ? { fields, message: "Please correct the fields marked in red." }
      : noFormErrors;
  };

  const save = async () => {
    const invalid = validate();
    setErrors(invalid);
    setSaved(null);
    if (invalid !== noFormErrors) return;
    setSaving(true);
    try {
      const answer = await api.call(putSubscriptionSettings, {
        body: {
          organisationName: organisationName.trim(),
          currencyCode: currencyCode as CurrencyKey,
          defaultCategory,
          itemCategories: items.map((i) => ({ code: i.code, category: i.category })),
          mfaPolicy,
          timeZone,
          backupsToKeep: Number(backupsToKeep),
        },
      });
      show(answer);
      startup.send({
        type: "organisation.changed",
        organisationName: answer.organisationName,
        currencyCode: answer.currencyCode,
      });
      setSaved("The organisation's settings are saved.");
    } catch (e) {
      setErrors(formErrorsOf(e, "The settings could not be saved. Please try again."));
    } finally {
      setSaving(false);
    }
  };

  if (loadError)
    return (
      <PageFrame title="Organisation Settings">
        <FormMessage error={loadError} />
      </PageFrame>
    );
  if (!settings)
    return (
      <PageFrame title="Organisation Settings">
        <div className="spinner spinner--page" role="status" aria-label="Loading" />
      </PageFrame>
    );

  return (
    <PageFrame title="Organisation Settings">
      <p className="page__subtitle">
        {settings.organisationName} ({settings.tenant}): these settings apply to every user of the
        organisation.
      </p>
      <form
        ref={form}
        className="settings-form"
        aria-label="Organisation settings"
        aria-busy={saving}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!saving) void save();
        }}
      >
        <fieldset className="settings-form__fields" disabled={saving}>
          <section className="panel" aria-labelledby="org-general">
            <h2 id="org-general">Organisation</h2>
            <TextField
              label="Organisation name"
              name="organisationName"
              value={organisationName}
              maxLength={200}
              errors={fieldMessages(errors, "organisationName")}
              note="Shown at sign-in and at the top of every page."
              onChange={(name) => {
                setOrganisationName(name);
                clearErrorsOf("organisationName");
              }}
            />
            <div className="field">
              <SelectField
                label="Currency"
                options={currencyList.map((c) => ({ value: c.key, label: `${c.name} (${c.key})` }))}
                value={currencyCode}
                onChange={setCurrencyCode}
              />
              <span className="form__note" aria-live="polite">
                Money is written {example.money(123456789, { decimals: 2 })} on every screen
                {currency ? ` (${currency.forcedLocale})` : ""}.
              </span>
              <FieldErrors errors={fieldMessages(errors, "currencyCode")} />
            </div>
            <div className="field">
              <LookupPicker
                label="Time zone"
                search={searchZones}
                value={zoneOption}
                invalid={fieldMessages(errors, "timeZone").length > 0}
                onChange={(option) => {
                  setTimeZone(option?.key ?? "");
                  clearErrorsOf("timeZone");
                }}
              />
              <FieldErrors errors={fieldMessages(errors, "timeZone")} />
            </div>
          </section>

          <section className="panel" aria-labelledby="org-categories">
            <h2 id="org-categories">Item categories</h2>
            <p className="form__note">
              Recurring items count in MRR; ad hoc revenue is shown apart; excluded items are left out of
              everything. Changing a category changes every number at once.
            </p>
            <div className="field">
              <SelectField
                label="Default category"
                options={categoryOptions}
                value={defaultCategory}
                onChange={(value) => setDefaultCategory(value as Category)}
              />
              <span className="form__note">
                Every item without a category of its own: {categoryNotes[defaultCategory]}.
              </span>
              <FieldErrors errors={fieldMessages(errors, "defaultCategory")} />
            </div>
            <LookupPicker
              label="Give an item its own category"
              search={searchItemsByCode}
              value={null}
              onChange={(option) => {
                if (!option || items.some((i) => i.code === option.key)) return;
                const category = defaultCategory === "Recurring" ? "Adhoc" : "Recurring";
                setItems([
                  ...items,
                  { code: option.key, name: option.label, detail: option.detail ?? option.key, category },
                ]);
              }}
            />
            {items.length === 0 ? (
              <p className="form__note">Every item takes the default category.</p>
            ) : (
              // On a phone a block an item (ui.css, table--stack): its Remove buttons ran past the panel's edge.
              <table className="data-table table--stack" aria-label="Items with a category of their own">
                <thead>
                  <tr>
                    <th scope="col">Item</th>
                    <th scope="col">Category</th>
                    <th scope="col">
                      <span className="visually-hidden">Remove</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((item, index) => (
                    <tr key={item.code}>
                      <th scope="row">
                        {item.name}
                        <span className="exclusion-entries__detail">{item.detail}</span>
                        <FieldErrors errors={fieldMessages(errors, `itemCategories.${index}`)} />
                      </th>
                      <td data-label="Category">
                        <SelectField
                          label={`Category of ${item.name}`}
                          className="select-field--inline"
                          options={categoryOptions}
                          value={item.category}
                          onChange={(value) =>
                            setItems(
                              items.map((i) =>
                                i.code === item.code ? { ...i, category: value as Category } : i,
                              ),
                            )
                          }
                        />
                      </td>
                      <td className="number">
                        <button
                          type="button"
                          className="button button--secondary button--small"
                          aria-label={`Remove ${item.name} (${item.code}): it takes the default category`}
                          onClick={() => setItems(items.filter((i) => i.code !== item.code))}
                        >
                          Remove
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>

          <section className="panel" aria-labelledby="org-security">
            <h2 id="org-security">Security and backups</h2>
            <div className="field">
              <span className="field__label" aria-hidden="true">
                Multi-factor authentication
              </span>
              <Segmented
                label="Multi-factor authentication"
                options={mfaOptions}
                value={mfaPolicy}
                onChange={(value) => setMfaPolicy(value as MfaPolicy)}
              />
              <span id="mfa-note" className="form__note">
                {mfaNotes[mfaPolicy]}
              </span>
              <FieldErrors errors={fieldMessages(errors, "mfaPolicy")} />
            </div>
            <TextField
              label="Backups to keep"
              name="backupsToKeep"
              type="number"
              min={1}
              max={100}
              inputMode="numeric"
              value={backupsToKeep}
              errors={fieldMessages(errors, "backupsToKeep")}
              note="How many of the automatic backups taken before imports are kept (1 to 100); backups made by hand are always kept."
              onChange={(keep) => {
                setBackupsToKeep(keep);
                clearErrorsOf("backupsToKeep");
              }}
            />
          </section>
        </fieldset>
        <SaveBar saving={saving} errors={errors} saved={saved} />
      </form>

      <section className="panel settings-terms" aria-labelledby="org-terms">
        <h2 id="org-terms">Terms of service versions</h2>
        <table className="data-table table--stack">
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">In effect from</th>
              <th scope="col">Status</th>
              <th scope="col" className="number">
                Users who accepted it
              </th>
            </tr>
          </thead>
          <tbody>
            {settings.termsVersions.map((v) => (
              <tr key={v.termsVersionID}>
                <th scope="row" data-label="Version">
                  {v.termsVersionID}
                </th>
                <td data-label="In effect from">{dateTime(v.effectiveAt, format)}</td>
                <td data-label="Status">{v.current ? "In effect" : "Earlier"}</td>
                <td className="number" data-label="Users who accepted it">
                  {format.count(v.acceptedUsers)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </PageFrame>
  );
}
