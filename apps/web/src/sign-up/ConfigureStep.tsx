import { errorText } from "@varia/api-client";
import {
  configureOrganisation,
  getSignUpConfiguration,
  itemCategories,
  type SignUpConfiguration,
} from "@varia/contracts";
import { type Category, signUpMachine, signUpPickers } from "@varia/machines";
import { useActorRef, useSelector } from "@xstate/react";
import { useEffect, useId, useMemo, useState } from "react";
import { fromPromise } from "xstate";
import { api } from "../api";
import { FormMessage } from "../shell/FormMessage";
import { Segmented } from "../ui/Segmented";

const categoryLabels: Record<Category, string> = {
  Recurring: "Recurring",
  Adhoc: "Ad hoc",
  Exclude: "Exclude",
};
const categoryNotes: Record<Category, string> = {
  Recurring: "Services count in MRR unless you pick them below as ad hoc.",
  Adhoc: "Services are one-off sales, shown apart and never in MRR, unless you pick them below as recurring.",
  Exclude: "Services are left out of every figure, unless you pick them below as recurring or ad hoc.",
};

/** A searchable list of the organisation's services, each with a checkbox (a fieldset read as one). */
function ServicePicker({
  legend,
  note,
  skus,
  chosen,
  onChange,
}: {
  legend: string;
  note: string;
  skus: SignUpConfiguration["skus"];
  chosen: string[];
  onChange: (codes: string[]) => void;
}) {
  const [text, setText] = useState("");
  const id = useId();
  const words = text.trim().toLowerCase();
  const shown = words
    ? skus.filter((s) => s.code.toLowerCase().includes(words) || s.name.toLowerCase().includes(words))
    : skus;
  const set = new Set(chosen);
  return (
    <fieldset className="boxed-fieldset sign-up__picker" aria-describedby={`${id}-note`}>
      <legend>{legend}</legend>
      <p id={`${id}-note`} className="form__note">
        {note} {chosen.length} of {skus.length} chosen.
      </p>
      <input
        type="search"
        className="sign-up__picker-search"
        placeholder="Search for..."
        aria-label={`Search ${legend.toLowerCase()}`}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <ul className="sign-up__picker-list">
        {shown.map((s) => (
          <li key={s.code}>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={set.has(s.code)}
                onChange={(event) =>
                  onChange(event.target.checked ? [...chosen, s.code] : chosen.filter((c) => c !== s.code))
                }
              />
              <span>
                {s.name} <span className="sign-up__code">{s.code}</span>
              </span>
            </label>
          </li>
        ))}
        {shown.length === 0 ? <li className="form__note">No results</li> : null}
      </ul>
    </fieldset>
  );
}

/**
 * The wizard's last step (docs/behaviour.md#sign-up-wizard): the organisation's name, the default
 * category of its services, and the services that differ from it (recurring ones when the default is
 * not Recurring, ad hoc ones when it is not Ad hoc); confirming saves them
 * (Integration/ConfigureOrganisation), which ends the sign-up, and opens the dashboard.
 */
export function ConfigureStep() {
  const [config, setConfig] = useState<SignUpConfiguration | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [alertText, setAlertText] = useState<string | null>(null);
  const nameId = useId();
  const actor = useActorRef(
    signUpMachine.provide({
      actors: {
        configure: fromPromise(async ({ input }) => {
          setSaveError(null);
          try {
            await api.call(configureOrganisation, { body: input });
          } catch (error) {
            setSaveError(errorText(error));
            throw error;
          }
        }),
      },
      actions: {
        alert: (_, params) => setAlertText(params.message),
        // A fresh start: the profile without a sign-up step, and the months the import brought.
        goHome: () => window.location.assign("/"),
      },
    }),
    { input: { step: "Configure" } },
  );
  const name = useSelector(actor, (s) => s.context.organisationName);
  const defaultCategory = useSelector(actor, (s) => s.context.defaultCategory);
  const recurring = useSelector(actor, (s) => s.context.recurringSkus);
  const adhoc = useSelector(actor, (s) => s.context.adhocSkus);
  const saving = useSelector(actor, (s) => s.matches({ configure: "saving" }) || s.status === "done");

  useEffect(() => {
    api.call(getSignUpConfiguration).then(
      (answer) => {
        setConfig(answer);
        actor.send({
          type: "configure.set",
          organisationName: answer.organisationName,
          defaultCategory: answer.defaultCategory,
          recurringSkus: answer.recurringSkus,
          adhocSkus: answer.adhocSkus,
        });
      },
      (error) => setLoadError(errorText(error)),
    );
  }, [actor]);

  const pickers = signUpPickers(defaultCategory);
  const skus = useMemo(() => config?.skus ?? [], [config]);
  const change = (event: Parameters<typeof actor.send>[0]) => {
    setAlertText(null);
    actor.send(event);
  };

  return (
    <form
      className="form sign-up__form"
      onSubmit={(event) => {
        event.preventDefault();
        setAlertText(null);
        actor.send({ type: "configure.confirm" });
      }}
    >
      <h1 id="sign-up-heading">Configure your organisation</h1>
      <p className="sign-up__lead">
        Tell Varia which services are subscriptions. Only recurring services count in MRR; you can change this
        later in the organisation's settings.
      </p>
      <FormMessage error={loadError} />
      <div className="field">
        <label className="field__label" htmlFor={nameId}>
          Organisation name
        </label>
        <input
          id={nameId}
          value={name}
          maxLength={200}
          autoComplete="organization"
          onChange={(event) => change({ type: "configure.set", organisationName: event.target.value })}
        />
      </div>
      <div className="field">
        <span className="field__label">Default category of services</span>
        <Segmented
          label="Default category of services"
          options={itemCategories.map((c) => ({ value: c, label: categoryLabels[c] }))}
          value={defaultCategory ?? ""}
          onChange={(category) => {
            const next = category as Category;
            // A service picked as the new default needs no exception.
            change({
              type: "configure.set",
              defaultCategory: next,
              recurringSkus: next === "Recurring" ? [] : recurring,
              adhocSkus: next === "Adhoc" ? [] : adhoc,
            });
          }}
        />
        {defaultCategory ? <span className="form__note">{categoryNotes[defaultCategory]}</span> : null}
      </div>
      {config && pickers.showRecurring ? (
        <ServicePicker
          legend="Recurring services"
          note="Subscriptions: they count in MRR."
          skus={skus}
          chosen={recurring}
          onChange={(codes) =>
            change({
              type: "configure.set",
              recurringSkus: codes,
              adhocSkus: adhoc.filter((c) => !codes.includes(c)),
            })
          }
        />
      ) : null}
      {config && pickers.showAdhoc ? (
        <ServicePicker
          legend="Ad hoc services"
          note="One-off sales: shown apart, never in MRR."
          skus={skus}
          chosen={adhoc}
          onChange={(codes) =>
            change({
              type: "configure.set",
              adhocSkus: codes,
              recurringSkus: recurring.filter((c) => !codes.includes(c)),
            })
          }
        />
      ) : null}
      <FormMessage error={alertText ?? saveError} />
      <div className="sign-up__actions">
        <button type="submit" className="button button--primary" disabled={saving || !config}>
          {saving ? <span className="spinner" aria-hidden="true" /> : null}
          Finish and open the dashboard
        </button>
      </div>
    </form>
  );
}
