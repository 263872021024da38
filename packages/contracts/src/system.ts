import { z } from "zod";
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
