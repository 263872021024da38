import { z } from "zod";
import { emptySchema } from "./common";
import { defineContract } from "./define-contract";

/**
 * An analytics record (docs/api.md#analytics-records): what happened (recordType, e.g. FrontEnd404 or
 * FeatureUsage), its data, up to three keys, and how long before the call it happened.
 */
export const usageRecordSchema = z.object({
  recordType: z.string().trim().min(1).max(100),
  recordData: z.string().max(2000),
  keys: z
    .object({
      key1: z.string().max(500).optional(),
      key2: z.string().max(500).optional(),
      key3: z.string().max(500).optional(),
    })
    .default({}),
  timeAgoMs: z.number().int().min(0).max(86_400_000),
});
export type UsageRecord = z.infer<typeof usageRecordSchema>;

export const putAnalyticsGeneral = defineContract({
  name: "analytics/general",
  method: "PUT",
  root: "api",
  path: "analytics/general",
  body: z.array(usageRecordSchema).min(1).max(100),
  response: emptySchema,
  responseKind: "empty",
  access: "authenticated",
  policy: "never",
  summary:
    "The web app's analytics records (a front-end 404, a card expanded, help shown): each is written to the server's log with the caller's organisation and user.",
});
