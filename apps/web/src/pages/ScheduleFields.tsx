import {
  describeSchedule,
  type ImportSchedule,
  scheduleCountries,
  scheduleIntervals,
  scheduleWeekdays,
  type TimeZone,
} from "@varia/contracts";
import type { DropdownOption } from "@varia/machines";
import { useMemo } from "react";
import { LookupPicker } from "../ui/LookupPicker";
import { Segmented } from "../ui/Segmented";
import { SelectField } from "../ui/Select";
import { searchTimeZones } from "../ui/time-zone-search";
import "./schedule-fields.css";

/** A schedule as its form edits it: everything but the source and the time zone. */
export type Schedule = Omit<ImportSchedule, "dataSourceId" | "timeZone">;
type Country = (typeof scheduleCountries)[number];

/** Countries as the screens show them: by name, alphabetically. */
const countryNames: Record<Country, string> = {
  Australia: "Australia",
  Canada: "Canada",
  NewZealand: "New Zealand",
  UnitedKingdom: "United Kingdom",
  UnitedStates: "United States",
};
const countryOptions = [...scheduleCountries]
  .sort((a, b) => countryNames[a].localeCompare(countryNames[b]))
  .map((c) => ({ value: c, label: countryNames[c] }));
/** The country a time zone most likely belongs to, to start the form with. */
export const countryOfZone = (zone: string): Country =>
  zone.startsWith("Pacific/Auckland") || zone.startsWith("Pacific/Chatham")
    ? "NewZealand"
    : zone.startsWith("Australia/")
      ? "Australia"
      : zone === "Europe/London"
        ? "UnitedKingdom"
        : /^America\/(Toronto|Vancouver|Edmonton|Winnipeg|Halifax|St_Johns|Regina)/.test(zone)
          ? "Canada"
          : "UnitedStates";
const hourOptions = Array.from({ length: 12 }, (_, i) => ({ value: String(i + 1), label: String(i + 1) }));
const minuteOptions = Array.from({ length: 12 }, (_, i) => ({
  value: String(i * 5),
  label: String(i * 5).padStart(2, "0"),
}));
const dayOptions = Array.from({ length: 28 }, (_, i) => ({ value: String(i + 1), label: String(i + 1) }));

export { accountingPackageNames as packageNames } from "@varia/contracts";

/** A schedule to start the form with: daily at 6:00 AM, in the country of the browser's time zone. */
export function defaultSchedule(): Schedule {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC";
  return {
    interval: "Daily",
    dayOfMonth: 1,
    dayOfWeek: "Monday",
    hour: 6,
    minute: 0,
    amPm: "AM",
    country: countryOfZone(zone),
  };
}

/**
 * The fields of an import schedule (docs/integration.md, "Schedules"): how often, the day, the time
 * on a 12-hour clock, the country and the time zone, with the schedule said back in words. The
 * sign-up's Data step and the integration overview share it.
 */
export function ScheduleFields({
  schedule,
  onChange,
  zones,
  zone,
  onZoneChange,
  sourceName,
  disabled = false,
}: {
  schedule: Schedule;
  onChange: (change: Partial<Schedule>) => void;
  zones: TimeZone[];
  zone: DropdownOption | null;
  onZoneChange: (zone: DropdownOption | null) => void;
  sourceName: string;
  disabled?: boolean;
}) {
  const searchZones = useMemo(() => searchTimeZones(zones), [zones]);
  return (
    <fieldset className="boxed-fieldset schedule-fields" disabled={disabled}>
      <legend>Import schedule</legend>
      <div className="field">
        <span className="field__label">How often</span>
        <Segmented
          label="How often"
          options={scheduleIntervals.map((i) => ({ value: i, label: i }))}
          value={schedule.interval}
          onChange={(interval) => onChange({ interval: interval as Schedule["interval"] })}
        />
      </div>
      <div className="schedule-fields__row">
        {schedule.interval === "Monthly" ? (
          <SelectField
            label="Day of the month"
            options={dayOptions}
            value={String(schedule.dayOfMonth ?? 1)}
            onChange={(day) => onChange({ dayOfMonth: Number(day) })}
          />
        ) : null}
        {schedule.interval === "Weekly" ? (
          <SelectField
            label="Day of the week"
            options={scheduleWeekdays.map((d) => ({ value: d, label: d }))}
            value={schedule.dayOfWeek ?? "Monday"}
            onChange={(day) => onChange({ dayOfWeek: day as Schedule["dayOfWeek"] })}
          />
        ) : null}
        {schedule.interval !== "Hourly" ? (
          <SelectField
            label="Hour"
            options={hourOptions}
            value={String(schedule.hour)}
            onChange={(hour) => onChange({ hour: Number(hour) })}
          />
        ) : null}
        <SelectField
          label={schedule.interval === "Hourly" ? "Minutes past the hour" : "Minute"}
          options={minuteOptions}
          value={String(schedule.minute - (schedule.minute % 5))}
          onChange={(minute) => onChange({ minute: Number(minute) })}
        />
        {schedule.interval !== "Hourly" ? (
          <div className="field">
            <span className="field__label">AM/PM</span>
            <Segmented
              label="AM or PM"
              options={[
                { value: "AM", label: "AM" },
                { value: "PM", label: "PM" },
              ]}
              value={schedule.amPm}
              onChange={(amPm) => onChange({ amPm: amPm as Schedule["amPm"] })}
            />
          </div>
        ) : null}
      </div>
      <div className="schedule-fields__row">
        <SelectField
          label="Country"
          options={countryOptions}
          value={schedule.country}
          onChange={(country) => onChange({ country: country as Country })}
        />
        <LookupPicker label="Time zone" search={searchZones} value={zone} onChange={onZoneChange} />
      </div>
      <p className="form__note">
        Varia reads {sourceName} {describeSchedule(schedule)}.
      </p>
    </fieldset>
  );
}
