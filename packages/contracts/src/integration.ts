import { z } from "zod";
import { abilities } from "./abilities";
import { signUpStepSchema } from "./account";
import { emptySchema, nameSchema } from "./common";
import { defineContract } from "./define-contract";
import { itemCategorySchema } from "./organisation-settings";

/**
 * The accounting packages Varia imports from (docs/integration.md): an organisation signs up through
 * one of them, and its data sources are the companies (QuickBooks) or organisations (Xero) it
 * authorised.
 */
export const accountingPackages = ["Quickbooks", "Xero"] as const;
export const accountingPackageSchema = z.enum(accountingPackages);
export type AccountingPackage = z.infer<typeof accountingPackageSchema>;
/** Each package's name as the screens, the CLI and e-mails write it. */
export const accountingPackageNames: Record<AccountingPackage, string> = {
  Quickbooks: "QuickBooks",
  Xero: "Xero",
};

/** A company or organisation in the accounting package that Varia may read invoices from. */
export const dataSourceSchema = z.object({
  /** Varia's id of the data source: the schedule's `dataSourceId`. */
  id: z.string(),
  /** The connection (one authorisation at the provider) it belongs to. */
  integrationGuid: z.string(),
  integrationType: accountingPackageSchema,
  /** The company's or organisation's name in the accounting package. */
  name: z.string(),
  /** The import schedule saved for it, if any. */
  schedule: z.lazy(() => importScheduleSchema).nullable(),
  /** The last import from it: its job and when it ended. */
  lastJobGuid: z.string().nullable(),
});
export type DataSource = z.infer<typeof dataSourceSchema>;

/** The schedule's countries, as sent; the screens show their names in alphabetical order. */
export const scheduleCountries = [
  "NewZealand",
  "UnitedKingdom",
  "UnitedStates",
  "Canada",
  "Australia",
] as const;
export const scheduleIntervals = ["Monthly", "Weekly", "Daily", "Hourly"] as const;
export const scheduleWeekdays = [
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
  "Sunday",
] as const;

/**
 * An import schedule: when, in the organisation's time zone, Varia reads the data source
 * again. A Monthly schedule names its day of the month (1 to 28, so that every month has it), a
 * Weekly one its weekday; Hourly runs at `minute` past every hour (docs/integration.md, "Schedules").
 */
export const importScheduleSchema = z
  .object({
    dataSourceId: z.string().min(1).max(100),
    /** An IANA time zone (System/GetTimeZones). */
    timeZone: z.string().min(1).max(64),
    country: z.enum(scheduleCountries),
    interval: z.enum(scheduleIntervals),
    dayOfMonth: z.number().int().min(1).max(28).nullish(),
    dayOfWeek: z.enum(scheduleWeekdays).nullish(),
    hour: z.number().int().min(1).max(12),
    minute: z.number().int().min(0).max(59),
    amPm: z.enum(["AM", "PM"]),
  })
  .superRefine((schedule, ctx) => {
    if (schedule.interval === "Monthly" && schedule.dayOfMonth == null)
      ctx.addIssue({
        code: "custom",
        path: ["dayOfMonth"],
        message: "A monthly schedule needs its day of the month",
      });
    if (schedule.interval === "Weekly" && schedule.dayOfWeek == null)
      ctx.addIssue({ code: "custom", path: ["dayOfWeek"], message: "A weekly schedule needs its weekday" });
  });
export type ImportSchedule = z.infer<typeof importScheduleSchema>;

/** When a schedule runs, in words ("every Monday at 7:30 AM"), as the screens and the CLI say it. */
export function describeSchedule(
  s: Pick<ImportSchedule, "interval" | "dayOfMonth" | "dayOfWeek" | "hour" | "minute" | "amPm">,
): string {
  const minute = String(s.minute).padStart(2, "0");
  const time = `${s.hour}:${minute} ${s.amPm}`;
  if (s.interval === "Hourly") return `every hour at ${minute} minutes past`;
  if (s.interval === "Daily") return `every day at ${time}`;
  if (s.interval === "Weekly") return `every ${s.dayOfWeek} at ${time}`;
  return `on day ${s.dayOfMonth} of every month at ${time}`;
}

const jobAnswer = z.object({ jobGuid: z.string() });

export const getDataSources = defineContract({
  name: "Integration/GetDataSources",
  method: "GET",
  root: "api",
  path: "Integration/GetDataSources",
  query: z.object({ IntegrationGuid: z.uuid().optional() }),
  response: z.array(dataSourceSchema),
  responseKind: "json",
  access: abilities.integrationManage,
  summary: "The companies or organisations the organisation's connections may read, with their schedules.",
});

export const addSchedule = defineContract({
  name: "Integration/AddSchedule",
  method: "POST",
  root: "api",
  path: "Integration/AddSchedule",
  body: importScheduleSchema,
  response: emptySchema,
  responseKind: "empty",
  access: abilities.integrationManage,
  policy: "never",
  summary: "Save (or replace) the data source's import schedule, without importing now.",
});

export const addScheduleImportData = defineContract({
  name: "Integration/AddScheduleImportData",
  method: "POST",
  root: "api",
  path: "Integration/AddScheduleImportData",
  body: importScheduleSchema,
  response: jobAnswer,
  responseKind: "json",
  access: abilities.integrationManage,
  policy: "never",
  summary:
    "Save the data source's import schedule and import from it now; answers with the job (Import/GetJobStatus).",
});

export const runSchedule = defineContract({
  name: "Integration/RunSchedule",
  method: "POST",
  root: "api",
  path: "Integration/RunSchedule",
  body: z.object({ dataSourceId: z.string().min(1).max(100) }),
  response: jobAnswer,
  responseKind: "json",
  access: abilities.importRun,
  policy: "never",
  summary: "Import from the data source now, outside its schedule; answers with the job.",
});

export const signUpConfigurationSchema = z.object({
  organisationName: z.string(),
  defaultCategory: itemCategorySchema,
  /** Every item imported so far, by code. */
  skus: z.array(z.object({ code: z.string(), name: z.string() })),
  /** The codes of the items with Recurring, or Adhoc, as a category of their own. */
  recurringSkus: z.array(z.string()),
  adhocSkus: z.array(z.string()),
});
export type SignUpConfiguration = z.infer<typeof signUpConfigurationSchema>;

export const getSignUpConfiguration = defineContract({
  name: "Integration/GetSignUpConfiguration",
  method: "GET",
  root: "api",
  path: "Integration/GetSignUpConfiguration",
  response: signUpConfigurationSchema,
  responseKind: "json",
  access: abilities.integrationManage,
  summary: "The organisation's name, default category and items, for the sign-up wizard's last step.",
});

const skuCodes = z.array(z.string().trim().min(1).max(100)).max(100_000);

export const configureOrganisation = defineContract({
  name: "Integration/ConfigureOrganisation",
  method: "POST",
  root: "api",
  path: "Integration/ConfigureOrganisation",
  body: z.object({
    organisationName: nameSchema(200),
    defaultCategory: itemCategorySchema,
    adhocSkus: skuCodes,
    recurringSkus: skuCodes,
  }),
  response: emptySchema,
  responseKind: "empty",
  access: abilities.integrationManage,
  policy: "never",
  changesData: true,
  summary:
    "Name the organisation and classify its items (the listed ones Recurring or Adhoc, every other one the default category); ends the sign-up.",
});

export const setSignUpStep = defineContract({
  name: "Integration/SetSignUpStep",
  method: "POST",
  root: "api",
  path: "Integration/SetSignUpStep",
  body: z.object({ step: signUpStepSchema }),
  response: emptySchema,
  responseKind: "empty",
  access: abilities.integrationManage,
  policy: "never",
  summary: "Move the organisation's sign-up to a step (the wizard's route at the next start-up).",
});

export const connectorAuthorisationUrl = defineContract({
  name: "Connectors/AuthorisationURL",
  method: "POST",
  root: "api",
  path: "Connectors/{integrationType}/AuthorisationURL",
  params: z.object({ integrationType: accountingPackageSchema }),
  query: z.object({ scope: z.string().max(1000).optional() }),
  response: z.object({ url: z.string() }),
  responseKind: "json",
  access: abilities.integrationManage,
  policy: "never",
  summary:
    "Where to send the browser to connect the organisation to QuickBooks or Xero: the provider's sign-in, whose answer keeps the grant as a connection and comes back to the integration overview.",
});

export const deleteConnection = defineContract({
  name: "Connections/Delete",
  method: "DELETE",
  root: "api",
  path: "Connections/{integrationGuid}",
  params: z.object({ integrationGuid: z.uuid() }),
  response: emptySchema,
  responseKind: "empty",
  access: abilities.integrationManage,
  policy: "never",
  summary:
    "Disconnect: revoke the connection's grant at QuickBooks or Xero, then forget its tokens, its data sources and their schedules; a provider that refuses the revocation or cannot be reached does not stop it (the server logs a warning). The invoice lines already imported stay.",
});

/** A data source as a connection lists it (docs/integration.md, "Connections in the API"). */
export const connectionSourceSchema = z.object({
  id: z.string(),
  name: z.string(),
  lastJobGuid: z.string().nullable(),
});

/**
 * One connection of the organisation: which package, since when, the data sources it reaches and
 * the users responsible for it. Never its tokens, nor the provider's issuer and subject.
 */
export const connectionSchema = z.object({
  integrationGuid: z.string(),
  integrationType: accountingPackageSchema,
  /** When the organisation connected (ISO 8601). */
  connectedAt: z.string(),
  dataSources: z.array(connectionSourceSchema),
  responsibleUserIDs: z.array(z.string()),
});
export type Connection = z.infer<typeof connectionSchema>;

const connectionParams = z.object({ integrationGuid: z.uuid() });

export const listConnections = defineContract({
  name: "Connections/List",
  method: "GET",
  root: "api",
  path: "Connections",
  response: z.array(connectionSchema),
  responseKind: "json",
  access: abilities.integrationManage,
  summary:
    "The organisation's connections to accounting packages, with their data sources and responsible users.",
});

export const getConnectionByGuid = defineContract({
  name: "Connections/GetConnectionByGuid",
  method: "GET",
  root: "api",
  path: "Connections/{integrationGuid}/GetConnectionByGuid",
  params: connectionParams,
  response: connectionSchema,
  responseKind: "json",
  access: abilities.integrationManage,
  summary: "One connection of the organisation, as Connections/List gives it.",
});

export const configureConnection = defineContract({
  name: "Connections/Configure",
  method: "POST",
  root: "api",
  path: "Connections/{integrationGuid}/Configure",
  params: connectionParams,
  response: connectionSchema,
  responseKind: "json",
  access: abilities.integrationManage,
  policy: "never",
  summary:
    "List the connection's data sources again at the provider: add those it newly reaches, remove those it no longer reaches (with their schedules); answers the connection.",
});

/**
 * A user responsible for a connection, told when an import from one of its sources fails (a disabled
 * one is not told); or one who could be made so.
 */
export const responsibleUserSchema = z.object({
  userID: z.string(),
  name: z.string(),
  email: z.string(),
  disabled: z.boolean(),
});
export type ResponsibleUser = z.infer<typeof responsibleUserSchema>;

export const getResponsibilityCandidates = defineContract({
  name: "Connections/GetResponsibilityCandidates",
  method: "GET",
  root: "api",
  path: "Connections/ResponsibilityCandidates",
  response: z.array(responsibleUserSchema),
  responseKind: "json",
  access: abilities.integrationManage,
  summary:
    "The organisation's users by name, to choose responsible users from: for a user who manages connections without managing users.",
});

export const getResponsibilities = defineContract({
  name: "Connections/GetResponsibilities",
  method: "GET",
  root: "api",
  path: "Connections/{integrationGuid}/Responsibilities",
  params: connectionParams,
  response: z.array(responsibleUserSchema),
  responseKind: "json",
  access: abilities.integrationManage,
  summary: "The users responsible for the connection, by name.",
});

export const addResponsibilities = defineContract({
  name: "Connections/AddResponsibilities",
  method: "POST",
  root: "api",
  path: "Connections/{integrationGuid}/Responsibilities",
  params: connectionParams,
  body: z.object({ userIDs: z.array(z.uuid()).min(1).max(100) }),
  response: z.array(responsibleUserSchema),
  responseKind: "json",
  access: abilities.integrationManage,
  policy: "never",
  summary:
    "Make users of the organisation responsible for the connection (e-mailed when an import from it fails); answers them all.",
});

export const deleteResponsibility = defineContract({
  name: "Connections/DeleteResponsibility",
  method: "DELETE",
  root: "api",
  path: "Connections/{integrationGuid}/Responsibilities",
  params: connectionParams,
  query: z.object({ userID: z.uuid() }),
  response: emptySchema,
  responseKind: "empty",
  access: abilities.integrationManage,
  policy: "never",
  summary: "The user is no longer responsible for the connection.",
});

export const startImport = defineContract({
  name: "ImportJob/StartImport",
  method: "POST",
  root: "api",
  path: "ImportJob/StartImport",
  query: z.object({ integrationGuid: z.uuid(), dataSourceId: z.uuid().optional() }),
  response: z.object({ jobs: z.array(z.object({ dataSourceId: z.string(), jobGuid: z.string() })) }),
  responseKind: "json",
  access: abilities.importRun,
  policy: "never",
  summary:
    "Import now from one data source of the connection, or from all of them; answers each source's job (one already waiting or running is answered).",
});
