import type { TimeZone } from "@varia/contracts";

/*
 * The time zones of System/GetTimeZones, from the runtime's own time zone data (Intl), no network.
 * The runtime names a few zones by the names they had before the IANA database renamed them (and
 * browsers report those old names too): the list shows the current names and accepts both.
 */

/** Zones the IANA database renamed, by the old name Intl still uses. */
const renamed: Record<string, string> = {
  "Africa/Asmera": "Africa/Asmara",
  "America/Buenos_Aires": "America/Argentina/Buenos_Aires",
  "America/Catamarca": "America/Argentina/Catamarca",
  "America/Cordoba": "America/Argentina/Cordoba",
  "America/Jujuy": "America/Argentina/Jujuy",
  "America/Mendoza": "America/Argentina/Mendoza",
  "America/Coral_Harbour": "America/Atikokan",
  "America/Indianapolis": "America/Indiana/Indianapolis",
  "America/Louisville": "America/Kentucky/Louisville",
  "America/Godthab": "America/Nuuk",
  "Asia/Calcutta": "Asia/Kolkata",
  "Asia/Katmandu": "Asia/Kathmandu",
  "Asia/Rangoon": "Asia/Yangon",
  "Asia/Saigon": "Asia/Ho_Chi_Minh",
  "Atlantic/Faeroe": "Atlantic/Faroe",
  "Europe/Kiev": "Europe/Kyiv",
  "Pacific/Enderbury": "Pacific/Kanton",
  "Pacific/Ponape": "Pacific/Pohnpei",
  "Pacific/Truk": "Pacific/Chuuk",
};

interface Zone {
  id: string;
  /** The runtime's name of the zone, for its formatters. */
  runtimeId: string;
  /** The zone's generic name ("New Zealand Time"); empty when the runtime has only an offset. */
  label: string;
  offset: Intl.DateTimeFormat;
}

let zones: Map<string, Zone> | undefined;

function zoneOf(runtimeId: string, at: number): Zone {
  const generic = new Intl.DateTimeFormat("en-US", { timeZone: runtimeId, timeZoneName: "longGeneric" })
    .formatToParts(at)
    .find((p) => p.type === "timeZoneName")?.value;
  return {
    id: renamed[runtimeId] ?? runtimeId,
    runtimeId,
    label: generic && !/^GMT/.test(generic) ? generic : "",
    offset: new Intl.DateTimeFormat("en-US", { timeZone: runtimeId, timeZoneName: "longOffset" }),
  };
}

function allZones(): Map<string, Zone> {
  if (!zones) {
    zones = new Map();
    // Names as they are today (a zone's name can change with its rules over the years).
    const today = Date.now();
    for (const runtimeId of ["UTC", ...Intl.supportedValuesOf("timeZone")]) {
      const zone = zoneOf(runtimeId, today);
      zones.set(zone.id, zone);
    }
  }
  return zones;
}

/** Minutes east of UTC at `now`. */
function offsetMinutes(zone: Zone, now: Date): number {
  const text = zone.offset.formatToParts(now).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(text);
  if (!match) return 0;
  return (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/**
 * Every time zone with a name to show: "(UTC+13:00) Pacific/Auckland, New Zealand Time" (the offset
 * at `now`, so daylight saving shows as it is), ordered by offset, then id.
 */
export function listTimeZones(now: Date): TimeZone[] {
  return [...allZones().values()]
    .map((zone) => ({ zone, minutes: offsetMinutes(zone, now) }))
    .sort((a, b) => a.minutes - b.minutes || (a.zone.id < b.zone.id ? -1 : a.zone.id > b.zone.id ? 1 : 0))
    .map(({ zone, minutes }) => ({
      id: zone.id,
      name: `(${formatOffset(minutes)}) ${zone.id}${zone.label ? `, ${zone.label}` : ""}`,
    }));
}

/**
 * The listed id of a time zone given by any name the runtime knows (an old name, a link such as
 * US/Eastern), or undefined when it is not a time zone.
 */
export function canonicalTimeZone(id: string): string | undefined {
  const known = allZones();
  if (known.has(id)) return id;
  try {
    const resolved = new Intl.DateTimeFormat("en-US", { timeZone: id }).resolvedOptions().timeZone;
    const listed = renamed[resolved] ?? resolved;
    return known.has(listed) ? listed : undefined;
  } catch {
    return undefined;
  }
}
