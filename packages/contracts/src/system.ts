import { z } from "zod";
import { abilities } from "./abilities";
import { defineContract } from "./define-contract";

/**
 * A time zone (docs/settings.md, "Time zones"): its IANA id and a name to show, e.g. "(UTC+12:00)
 * Pacific/Auckland, New Zealand Time".
 */
export const timeZoneSchema = z.object({ id: z.string(), name: z.string() });
export type TimeZone = z.infer<typeof timeZoneSchema>;

export const getTimeZones = defineContract({
  name: "System/GetTimeZones",
  method: "GET",
  root: "api",
  path: "System/GetTimeZones",
  response: z.array(timeZoneSchema),
  responseKind: "json",
  access: "authenticated",
  policy: "lookup",
  summary:
    "The IANA time zones with a display name (the offset from UTC now, the id and the zone's name), by offset then id.",
});

/** The maintenance jobs System/AddJob queues (docs/integration.md, "Maintenance jobs"). */
export const maintenanceJobs = ["RebuildCube"] as const;
export const maintenanceJobSchema = z.enum(maintenanceJobs);
export type MaintenanceJob = z.infer<typeof maintenanceJobSchema>;

export const addJob = defineContract({
  name: "System/AddJob",
  method: "POST",
  root: "api",
  path: "System/AddJob",
  body: z.object({ job: maintenanceJobSchema }),
  response: z.object({ jobGuid: z.string() }),
  responseKind: "json",
  access: abilities.settingsBackupsManage,
  policy: "never",
  summary:
    "Queue a maintenance job of the organisation (RebuildCube: the monthly cube and its snapshot built again from the stored lines); answers the job (Import/GetJobStatus).",
});
