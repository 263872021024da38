import { z } from "zod";
import { emptySchema } from "./common";
import { defineContract } from "./define-contract";

/** Spec 3.7's analytics record: what the workspace records of its own use (not revenue analytics). */
export const usageRecordSchema = z.object({
  /** FeatureUsage, FrontEnd404, ...: letters and digits. */
  recordType: z
    .string()
    .min(1)
    .max(50)
    .regex(/^[A-Za-z0-9]+$/, "letters and digits only"),
  recordData: z.string().max(2000),
  keys: z
    .object({
      key1: z.string().max(200).optional(),
      key2: z.string().max(200).optional(),
      key3: z.string().max(200).optional(),
    })
    .strict(),
  /** How long before the call the thing happened (at most a day). */
  timeAgoMs: z.number().int().min(0).max(86_400_000),
});
export type UsageRecord = z.infer<typeof usageRecordSchema>;

/** The most records one call carries. */
export const usageRecordsPerCall = 100;

/**
 * PUT analytics/general (spec 7.7): the workspace's own analytics records, sent together 1 s after
 * the last one was queued: card expanded or shrunk, help text shown or hidden, an unknown route.
 * Any signed-in user may send them; they are stored with the user and organisation.
 */
export const analyticsGeneral = defineContract({
  name: "analytics/general",
  method: "PUT",
  root: "api",
  path: "analytics/general",
  body: z.array(usageRecordSchema).min(1).max(usageRecordsPerCall),
  response: emptySchema,
  responseKind: "empty",
  access: "authenticated",
  policy: "never",
  summary:
    "Store the workspace's analytics records (feature usage, front-end 404s) of the signed-in user, at most 100 a call.",
});

/** The same contract by the name the settings side gave it. */
export const putAnalyticsGeneral = analyticsGeneral;
