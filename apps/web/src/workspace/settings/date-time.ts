import type { Format } from "../../ui/format";
import { cellText } from "../../ui/grid/cell-text";

/** A moment as settings screens write it: '24th Nov 2026, 00:31' (the day as tables write dates). */
export function dateTime(iso: string, format: Format): string {
  const moment = new Date(iso);
  const local = `${moment.getFullYear()}-${String(moment.getMonth() + 1).padStart(2, "0")}-${String(moment.getDate()).padStart(2, "0")}`;
  const time = moment.toLocaleTimeString(format.locale, { hour: "2-digit", minute: "2-digit" });
  return `${cellText("date", local, format)}, ${time}`;
}
