import type { Format } from "../../ui/format";
import { cellText } from "../../ui/grid/cell-text";

/**
 * A moment as settings screens write it: '24th Nov 2026, 12:31 AM' (the day as tables write dates,
 * the time in the organisation's locale); with seconds where several may share a minute (backups).
 */
export function dateTime(iso: string, format: Format, options: { seconds?: boolean } = {}): string {
  const moment = new Date(iso);
  const local = `${moment.getFullYear()}-${String(moment.getMonth() + 1).padStart(2, "0")}-${String(moment.getDate()).padStart(2, "0")}`;
  const time = moment.toLocaleTimeString(format.locale, {
    hour: "2-digit",
    minute: "2-digit",
    ...(options.seconds ? { second: "2-digit" } : {}),
  });
  return `${cellText("date", local, format)}, ${time}`;
}
