import type { ImportSchedule } from "@varia/contracts";
import { assign, fromPromise, setup } from "xstate";
import { notProvided } from "../request-error";

/** The sign-up wizard's validation messages (docs/behaviour.md#validation), verbatim. */
export const signUpMessages = {
  terms: "Please agree to the terms and conditions",
  integration: "Please select an integration type",
  data: "Fill in all info please",
  configure: "fill in all fields please",
} as const;

export type IntegrationType = "Quickbooks" | "Xero";
export type Category = "Recurring" | "Adhoc" | "Exclude";

/** When the import runs again (Integration/AddSchedule): everything but the source and the time zone. */
export type Schedule = Omit<ImportSchedule, "dataSourceId" | "timeZone">;

export interface SignUpContext {
  step: "Welcome" | "Data" | "Configure";
  integrationType: IntegrationType | null;
  agreed: boolean;
  dataSourceId: string | null;
  schedule: Schedule | null;
  timeZone: string | null;
  organisationName: string;
  defaultCategory: Category | null;
  recurringSkus: string[];
  adhocSkus: string[];
  errors: string[];
  jobGuid: string | null;
}

export type SignUpEvent =
  | { type: "welcome.chooseIntegration"; integrationType: IntegrationType }
  | { type: "welcome.agree"; agreed: boolean }
  | { type: "welcome.authorise" }
  | { type: "data.set"; dataSourceId?: string; schedule?: Schedule; timeZone?: string }
  | { type: "data.start" }
  | { type: "job.completed" }
  | { type: "job.failed" }
  | {
      type: "configure.set";
      organisationName?: string;
      defaultCategory?: Category;
      recurringSkus?: string[];
      adhocSkus?: string[];
    }
  | { type: "configure.confirm" };

/**
 * The sign-up wizard (docs/behaviour.md#sign-up-wizard): Welcome (integration type and agreement, then
 * Authorise at the provider), Data (source, schedule, time zone, then the scheduled import whose job progress
 * runs on the importJob machine), Configure (name, default category, the service pickers). The app provides
 * `authorise` (a browser navigation), `startImport` (answers the job id), `configure`, and the action `alert`
 * (docs/behaviour.md#validation: alerts) and `goHome`.
 */
export const signUpMachine = setup({
  types: {
    context: {} as SignUpContext,
    events: {} as SignUpEvent,
    input: {} as { step?: SignUpContext["step"] },
  },
  actors: {
    authorise: fromPromise<void, { integrationType: IntegrationType }>(async () => notProvided("authorise")),
    startImport: fromPromise<
      { jobGuid: string },
      { dataSourceId: string; schedule: Schedule; timeZone: string }
    >(async () => notProvided("startImport")),
    configure: fromPromise<
      void,
      { organisationName: string; defaultCategory: Category; recurringSkus: string[]; adhocSkus: string[] }
    >(async () => notProvided("configure")),
  },
  actions: {
    alert: (_, _params: { message: string }) => {},
    goHome: () => {},
  },
  guards: {
    welcomeComplete: ({ context }) => context.agreed && context.integrationType !== null,
    dataComplete: ({ context }) => Boolean(context.dataSourceId && context.schedule && context.timeZone),
    configureComplete: ({ context }) =>
      context.organisationName.trim() !== "" && context.defaultCategory !== null,
    startsAtData: ({ context }) => context.step === "Data",
    startsAtConfigure: ({ context }) => context.step === "Configure",
  },
}).createMachine({
  id: "signUp",
  context: ({ input }) => ({
    step: input.step ?? "Welcome",
    integrationType: null,
    agreed: false,
    dataSourceId: null,
    schedule: null,
    timeZone: null,
    organisationName: "",
    defaultCategory: null,
    recurringSkus: [],
    adhocSkus: [],
    errors: [],
    jobGuid: null,
  }),
  initial: "starting",
  states: {
    starting: {
      always: [
        { guard: "startsAtConfigure", target: "configure" },
        { guard: "startsAtData", target: "data" },
        { target: "welcome" },
      ],
    },
    welcome: {
      entry: assign({ step: "Welcome" }),
      on: {
        "welcome.chooseIntegration": {
          actions: assign({ integrationType: ({ event }) => event.integrationType, errors: [] }),
        },
        "welcome.agree": { actions: assign({ agreed: ({ event }) => event.agreed, errors: [] }) },
        "welcome.authorise": [
          { guard: "welcomeComplete", target: "authorising" },
          {
            // Either blocks Authorise (docs/behaviour.md#validation).
            actions: assign({
              errors: ({ context }) => [
                ...(context.agreed ? [] : [signUpMessages.terms]),
                ...(context.integrationType ? [] : [signUpMessages.integration]),
              ],
            }),
          },
        ],
      },
    },
    authorising: {
      invoke: {
        src: "authorise",
        input: ({ context }) => ({ integrationType: context.integrationType! }),
        onDone: { target: "data" },
        onError: { target: "welcome" },
      },
    },
    data: {
      entry: assign({ step: "Data" }),
      initial: "editing",
      states: {
        editing: {
          on: {
            "data.set": {
              actions: assign({
                dataSourceId: ({ context, event }) => event.dataSourceId ?? context.dataSourceId,
                schedule: ({ context, event }) => event.schedule ?? context.schedule,
                timeZone: ({ context, event }) => event.timeZone ?? context.timeZone,
              }),
            },
            "data.start": [
              { guard: "dataComplete", target: "starting" },
              { actions: { type: "alert", params: { message: signUpMessages.data } } },
            ],
          },
        },
        starting: {
          invoke: {
            src: "startImport",
            input: ({ context }) => ({
              dataSourceId: context.dataSourceId!,
              schedule: context.schedule!,
              timeZone: context.timeZone!,
            }),
            onDone: {
              target: "importing",
              actions: assign({ jobGuid: ({ event }) => event.output.jobGuid }),
            },
            onError: { target: "editing" },
          },
        },
        /** The job runs on the importJob machine (with inSignUp), which moves on to Configure. */
        importing: {
          on: {
            "job.completed": { target: "#signUp.configure" },
            // A failed job leaves the form as it was, to try again.
            "job.failed": { target: "editing" },
          },
        },
      },
    },
    configure: {
      entry: assign({ step: "Configure" }),
      initial: "editing",
      states: {
        editing: {
          on: {
            "configure.set": {
              actions: assign({
                organisationName: ({ context, event }) => event.organisationName ?? context.organisationName,
                defaultCategory: ({ context, event }) => event.defaultCategory ?? context.defaultCategory,
                recurringSkus: ({ context, event }) => event.recurringSkus ?? context.recurringSkus,
                adhocSkus: ({ context, event }) => event.adhocSkus ?? context.adhocSkus,
              }),
            },
            "configure.confirm": [
              { guard: "configureComplete", target: "saving" },
              { actions: { type: "alert", params: { message: signUpMessages.configure } } },
            ],
          },
        },
        saving: {
          invoke: {
            src: "configure",
            input: ({ context }) => ({
              organisationName: context.organisationName.trim(),
              defaultCategory: context.defaultCategory!,
              recurringSkus: context.recurringSkus,
              adhocSkus: context.adhocSkus,
            }),
            onDone: { target: "#signUp.done", actions: "goHome" },
            onError: { target: "editing" },
          },
        },
      },
    },
    done: { type: "final" },
  },
});

/**
 * docs/behaviour.md#sign-up-wizard: the recurring picker is hidden when the default category is Recurring;
 * adhoc likewise.
 */
export function signUpPickers(defaultCategory: Category | null) {
  return { showRecurring: defaultCategory !== "Recurring", showAdhoc: defaultCategory !== "Adhoc" };
}
