import type { ImportSchedule } from "@varia/contracts";
import type { Kysely, Selectable } from "kysely";
import type { Schema } from "../db/schema";
import { AppError } from "../errors";
import { canonicalTimeZone } from "../settings/time-zones";
import type { ImportQueue } from "./import-queue";
import "../db/integration-schema";

/*
 * Import schedules (docs/integration.md, "Schedules"): the wizard's schedule is kept in
 * `import_schedules` as sent, and pg-boss holds a cron job made from it, in the schedule's time
 * zone, keyed by the data source's id. Its occurrences queue the data source's import.
 */

const cronWeekdays = {
  Sunday: 0,
  Monday: 1,
  Tuesday: 2,
  Wednesday: 3,
  Thursday: 4,
  Friday: 5,
  Saturday: 6,
} as const;

/** 12-hour clock to 24-hour: 12 AM is 0, 12 PM is 12. */
export function hour24(hour: number, amPm: "AM" | "PM"): number {
  return (hour % 12) + (amPm === "PM" ? 12 : 0);
}

/**
 * The cron expression of a schedule: Monthly `minute hour dayOfMonth * *`, Weekly
 * `minute hour * * weekday` (0 Sunday), Daily `minute hour * * *`, Hourly `minute * * * *`.
 */
export function scheduleCron(schedule: ImportSchedule): string {
  const { minute } = schedule;
  const hour = hour24(schedule.hour, schedule.amPm);
  switch (schedule.interval) {
    case "Monthly":
      return `${minute} ${hour} ${schedule.dayOfMonth} * *`;
    case "Weekly":
      return `${minute} ${hour} * * ${cronWeekdays[schedule.dayOfWeek!]}`;
    case "Daily":
      return `${minute} ${hour} * * *`;
    case "Hourly":
      return `${minute} * * * *`;
  }
}

/** A schedule as GetDataSources answers it. */
export function scheduleOfRow(row: Selectable<Schema["import_schedules"]>): ImportSchedule {
  return {
    dataSourceId: row.data_source_id,
    timeZone: row.time_zone,
    country: row.country,
    interval: row.interval,
    dayOfMonth: row.day_of_month,
    dayOfWeek: row.day_of_week,
    hour: row.hour,
    minute: row.minute,
    amPm: row.am_pm,
  };
}

/**
 * Saves (or replaces) the schedule of one of the organisation's data sources and its cron job.
 * An unknown time zone is refused naming `timeZone`; another organisation's source is not found.
 */
export async function saveImportSchedule(
  db: Kysely<Schema>,
  queue: ImportQueue,
  organisationId: string,
  schedule: ImportSchedule,
  now: Date,
): Promise<void> {
  const timeZone = canonicalTimeZone(schedule.timeZone);
  if (!timeZone)
    throw new AppError("BadRequest", "Invalid body: timeZone", [
      { field: "timeZone", message: `'${schedule.timeZone}' is not a time zone` },
    ]);
  const source = await db
    .selectFrom("data_sources")
    .select("id")
    .where("organisation_id", "=", organisationId)
    .where("id", "=", uuidOrNil(schedule.dataSourceId))
    .executeTakeFirst();
  if (!source) throw new AppError("NotFound", "No such data source");
  // Only the fields of its interval are kept: a Daily schedule has no weekday.
  const values = {
    time_zone: timeZone,
    country: schedule.country,
    interval: schedule.interval,
    day_of_month: schedule.interval === "Monthly" ? (schedule.dayOfMonth ?? null) : null,
    day_of_week: schedule.interval === "Weekly" ? (schedule.dayOfWeek ?? null) : null,
    hour: schedule.hour,
    minute: schedule.minute,
    am_pm: schedule.amPm,
    updated_at: now,
  };
  const cron = scheduleCron({ ...schedule, dayOfMonth: values.day_of_month, dayOfWeek: values.day_of_week });
  const previous = await db
    .selectFrom("import_schedules")
    .selectAll()
    .where("organisation_id", "=", organisationId)
    .where("data_source_id", "=", source.id)
    .executeTakeFirst();
  await db
    .insertInto("import_schedules")
    .values({ organisation_id: organisationId, data_source_id: source.id, ...values })
    .onConflict((oc) => oc.columns(["organisation_id", "data_source_id"]).doUpdateSet(values))
    .execute();
  // The row and pg-boss's cron are written apart (pg-boss keeps its own tables and, on PostgreSQL,
  // connections): if the cron cannot be written, the row goes back to what it was, so the screen
  // never shows a schedule that does not run.
  try {
    await queue.schedule(source.id, cron, timeZone, { organisationId, dataSourceId: source.id });
  } catch (error) {
    if (previous)
      await db
        .updateTable("import_schedules")
        .set(previous)
        .where("organisation_id", "=", organisationId)
        .where("data_source_id", "=", source.id)
        .execute();
    else
      await db
        .deleteFrom("import_schedules")
        .where("organisation_id", "=", organisationId)
        .where("data_source_id", "=", source.id)
        .execute();
    throw error;
  }
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id that is no uuid names no row: compared as the nil uuid (PostgreSQL would refuse the cast). */
export function uuidOrNil(id: string): string {
  return uuidPattern.test(id) ? id : "00000000-0000-0000-0000-000000000000";
}
