import { errorText } from "@varia/api-client";
import {
  addScheduleImportData,
  type DataSource,
  getDataSources,
  getTimeZones,
  setSignUpStep,
  type TimeZone,
} from "@varia/contracts";
import type { DropdownOption } from "@varia/machines";
import { selectJobCompleted, selectJobFinished, signUpMachine } from "@varia/machines";
import { useActorRef, useSelector } from "@xstate/react";
import { useEffect, useState } from "react";
import { createActor, fromPromise } from "xstate";
import { api } from "../api";
import { ConnectButtons } from "../pages/ConnectButtons";
import { appImportJobMachine } from "../pages/import-job-actor";
import { type JobActor, JobProgress } from "../pages/JobProgress";
import { defaultSchedule, packageNames, type Schedule, ScheduleFields } from "../pages/ScheduleFields";
import { FormMessage } from "../shell/FormMessage";
import { SelectField } from "../ui/Select";

/**
 * The wizard's Data step (docs/behaviour.md#sign-up-wizard): the company or organisation to read, when
 * to read it again (the schedule, in a time zone), then the first import now, followed as a job (every
 * 5 s). A completed job moves the sign-up to Configure and goes there; a failed one says why and lets
 * the visitor start again.
 */
export function DataStep() {
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC";
  const [sources, setSources] = useState<DataSource[] | null>(null);
  const [zones, setZones] = useState<TimeZone[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [startError, setStartError] = useState<string | null>(null);
  const [alertText, setAlertText] = useState<string | null>(null);
  const [job, setJob] = useState<JobActor | null>(null);
  const [zone, setZone] = useState<DropdownOption | null>(null);
  const [schedule, setSchedule] = useState<Schedule>(defaultSchedule);

  const actor = useActorRef(
    signUpMachine.provide({
      actors: {
        startImport: fromPromise(async ({ input }) => {
          setStartError(null);
          try {
            return await api.call(addScheduleImportData, {
              body: { ...input.schedule, dataSourceId: input.dataSourceId, timeZone: input.timeZone },
            });
          } catch (error) {
            setStartError(errorText(error));
            throw error;
          }
        }),
      },
      actions: { alert: (_, params) => setAlertText(params.message) },
    }),
    { input: { step: "Data" } },
  );
  const dataSourceId = useSelector(actor, (s) => s.context.dataSourceId);
  const jobGuid = useSelector(actor, (s) => s.context.jobGuid);
  const busy = useSelector(actor, (s) => s.matches({ data: "starting" }) || s.matches({ data: "importing" }));

  useEffect(() => {
    Promise.all([api.call(getDataSources, { query: {} }), api.call(getTimeZones)]).then(
      ([found, allZones]) => {
        setSources(found);
        setZones(allZones);
        const first = found[0];
        if (found.length === 1 && first) actor.send({ type: "data.set", dataSourceId: first.id });
        const known = allZones.find((z) => z.id === browserZone);
        if (known) {
          setZone({ key: known.id, label: known.name });
          actor.send({ type: "data.set", timeZone: known.id });
        }
      },
      (error) => setLoadError(errorText(error)),
    );
  }, [actor, browserZone]);

  // The schedule as the machine sees it: only what the interval uses.
  useEffect(() => {
    actor.send({
      type: "data.set",
      schedule: {
        ...schedule,
        dayOfMonth: schedule.interval === "Monthly" ? schedule.dayOfMonth : null,
        dayOfWeek: schedule.interval === "Weekly" ? schedule.dayOfWeek : null,
      },
    });
  }, [actor, schedule]);

  // Each new job is followed until it ends; in sign-up its completion moves the step to Configure.
  useEffect(() => {
    if (!jobGuid) return;
    const followed = createActor(
      appImportJobMachine.provide({
        actors: {
          setSignUpStepConfigure: fromPromise(() => api.call(setSignUpStep, { body: { step: "Configure" } })),
        },
        actions: { goToConfigure: () => actor.send({ type: "job.completed" }) },
      }),
      { input: { jobGuid, inSignUp: true } },
    );
    followed.subscribe((snapshot) => {
      if (snapshot.status === "done" && !selectJobCompleted(snapshot)) actor.send({ type: "job.failed" });
    });
    followed.start();
    setJob(followed);
    return () => {
      followed.stop();
    };
  }, [actor, jobGuid]);
  const completed = useSelector(job ?? undefined, (s) => (s ? selectJobCompleted(s) : false));
  const finished = useSelector(job ?? undefined, (s) => (s ? selectJobFinished(s) : false));
  const configured = useSelector(actor, (s) => s.matches("configure"));
  useEffect(() => {
    if (configured) window.location.assign("/sign-up/configure");
  }, [configured]);

  const set = (change: Partial<Schedule>) => {
    setAlertText(null);
    setSchedule((s) => ({ ...s, ...change }));
  };
  const source = sources?.find((s) => s.id === dataSourceId);

  return (
    <form
      className="form sign-up__form"
      onSubmit={(event) => {
        event.preventDefault();
        setAlertText(null);
        actor.send({ type: "data.start" });
      }}
    >
      <h1 id="sign-up-heading">Choose your data</h1>
      <p className="sign-up__lead">
        Pick the company to read and when Varia reads it again to keep your figures current. The first import
        starts now.
      </p>
      <FormMessage error={loadError} />
      {sources === null && !loadError ? (
        <p className="sign-up__loading" role="status">
          <span className="spinner spinner--dark" aria-hidden="true" /> Finding your companies…
        </p>
      ) : null}
      {sources?.length === 0 ? (
        <>
          <p className="form__error" role="alert">
            Varia could not find a company in your accounting package. Connect it again, and allow Varia to
            read your company's data when the provider asks.
          </p>
          <ConnectButtons onError={setLoadError} />
        </>
      ) : null}
      {sources && sources.length > 0 ? (
        <SelectField
          label="Data source"
          options={sources.map((s) => ({
            value: s.id,
            label: `${s.name} (${packageNames[s.integrationType]})`,
          }))}
          value={dataSourceId ?? ""}
          onChange={(id) => {
            setAlertText(null);
            actor.send({ type: "data.set", dataSourceId: id });
          }}
        />
      ) : null}
      <ScheduleFields
        schedule={schedule}
        onChange={set}
        zones={zones}
        zone={zone}
        onZoneChange={(option) => {
          setAlertText(null);
          setZone(option);
          actor.send({ type: "data.set", timeZone: option?.key ?? "" });
        }}
        sourceName={source?.name ?? "the company"}
        disabled={busy}
      />
      <FormMessage error={alertText ?? startError} />
      {job ? <JobProgress actor={job} /> : null}
      <div className="sign-up__actions">
        <button type="submit" className="button button--primary" disabled={busy || completed}>
          {busy && !finished ? <span className="spinner" aria-hidden="true" /> : null}
          {job && finished && !completed ? "Import again" : "Start import"}
        </button>
        <button
          type="button"
          className="button button--secondary"
          disabled={!completed}
          onClick={() => window.location.assign("/sign-up/configure")}
        >
          Continue
        </button>
      </div>
    </form>
  );
}
