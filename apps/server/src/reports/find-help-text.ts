import { supportedMonths } from "@varia/contracts";
import { type Period, periodFormat, periodTryParse } from "@varia/period";
import { z } from "zod";
import { AppError } from "../errors";
import { helpTexts } from "./help-texts";

/** A period in the key's filter parameters: any string form of docs/api.md ("Filter parameters"), or {yearNo, monthNo}. */
const firstYear = Number(supportedMonths.first.slice(0, 4));
const lastYear = Number(supportedMonths.last.slice(0, 4));
const periodMessage = `expected a period such as 2025-06, from ${supportedMonths.first} to ${supportedMonths.last}`;
const periodOf = z.union([
  z.string().transform((text, ctx) => {
    const period = periodTryParse(text);
    if (!period || period.yearNo < firstYear || period.yearNo > lastYear)
      ctx.addIssue({ code: "custom", message: periodMessage });
    return period ?? z.NEVER;
  }),
  z.object({
    yearNo: z.number().int().min(firstYear, periodMessage).max(lastYear, periodMessage),
    monthNo: z.number().int().min(1).max(12).optional(),
  }),
]);

const keySchema = z.object({
  name: z.string().min(1).max(200),
  filterParams: z
    .object({ dateFrom: periodOf.nullish(), dateTo: periodOf.nullish() })
    .passthrough()
    .nullish(),
});

/** The key of docs/api.md ("Shapes"): a plain name, or JSON {name, filterParams: {dateFrom, dateTo}}. */
export function parseHelpKey(key: string): z.infer<typeof keySchema> {
  if (!key.startsWith("{")) return { name: key };
  let json: unknown;
  try {
    json = JSON.parse(key);
  } catch {
    throw new AppError("BadRequest", "Invalid query: key", [{ field: "key", message: "not valid JSON" }]);
  }
  const parsed = keySchema.safeParse(json);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((i) => ({
      field: ["key", ...i.path].join("."),
      message: i.message,
    }));
    throw new AppError("BadRequest", `Invalid query: ${errors.map((e) => e.field).join(", ")}`, errors);
  }
  return parsed.data;
}

const show = (p: Period) => periodFormat(p, "display");

/** The help text of a key, with the periods it was asked for when the key names them. */
export function findHelpText(rawKey: string) {
  const key = parseHelpKey(rawKey);
  const entry = helpTexts.get(key.name.trim().toLowerCase());
  if (!entry) throw new AppError("NotFound", `No help text for the key '${key.name}'.`);
  const from = key.filterParams?.dateFrom;
  const to = key.filterParams?.dateTo;
  const periods =
    from && to ? `${show(to)} against ${show(from)}` : to ? show(to) : from ? `from ${show(from)}` : "";
  const content = !periods
    ? entry.content
    : entry.format === "html"
      ? `${entry.content}<p>Shown for ${periods}.</p>`
      : `${entry.content} Shown for ${periods}.`;
  return { key: key.name, title: entry.title, format: entry.format, content };
}
