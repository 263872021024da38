import { z } from "zod";
import { abilities } from "./abilities";
import { emptySchema, nameSchema } from "./common";
import { defineContract } from "./define-contract";
import { stockTypes } from "./filter-query";
import { lookupSearchSchema } from "./reports";

/*
 * Exclusion lists (docs/settings.md, "Exclusion lists"): named lists of clients and items left out of every
 * number (dashboards, reports and their exports, DashboardAlpha/GetVariance) while the list is active. A list
 * is named by its `exclusionHeaderID`; the calls' query parameter `exclusionID` carries it. Entries are
 * clients and items by code, their identity in every import.
 */

const code = z.string().trim().min(1).max(100);

/** A client on a list; `clientID` is null when the organisation has no client with the code now. */
export const exclusionClientSchema = z.object({
  clientID: z.string().nullable(),
  code: z.string(),
  name: z.string(),
});

/** An item on a list; `stockItemID` and `stockType` are null when no item has the code now. */
export const exclusionItemSchema = z.object({
  stockItemID: z.string().nullable(),
  code: z.string(),
  name: z.string(),
  stockType: z.enum(stockTypes).nullable(),
});

export const exclusionListSummarySchema = z.object({
  exclusionHeaderID: z.string(),
  name: z.string(),
  active: z.boolean(),
  clientCount: z.number().int(),
  itemCount: z.number().int(),
  updatedAt: z.string(),
});
export type ExclusionListSummary = z.infer<typeof exclusionListSummarySchema>;

export const exclusionListSchema = z.object({
  exclusionHeaderID: z.string(),
  name: z.string(),
  active: z.boolean(),
  clients: z.array(exclusionClientSchema),
  items: z.array(exclusionItemSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ExclusionList = z.infer<typeof exclusionListSchema>;

const exclusionIdQuery = z.object({ exclusionID: z.uuid() });

export const getExclusionList = defineContract({
  name: "Exclusion/GetExclusionList",
  method: "GET",
  root: "variance",
  path: "Exclusion/GetExclusionList",
  response: z.array(exclusionListSummarySchema),
  responseKind: "json",
  access: abilities.settingsListsManage,
  summary: "The organisation's exclusion lists by name, with whether each is active and its size.",
});

export const getExclusionByID = defineContract({
  name: "Exclusion/GetExclusionByID",
  method: "GET",
  root: "variance",
  path: "Exclusion/GetExclusionByID",
  query: exclusionIdQuery,
  response: exclusionListSchema,
  responseKind: "json",
  access: abilities.settingsListsManage,
  summary: "One exclusion list (exclusionID is its exclusionHeaderID) with its clients and items.",
});

/** The picker's rows: `exclusionHeaderIDs` are the lists (active or not) that hold the row already. */
const pickerPage = <T extends z.ZodRawShape>(row: T) =>
  z.object({
    rows: z.array(z.object({ ...row, exclusionHeaderIDs: z.array(z.string()) })),
    rowCount: z.number().int(),
  });

export const exclusionClientList = defineContract({
  name: "Exclusion/GetClientList",
  method: "POST",
  root: "variance",
  path: "Exclusion/GetClientList",
  body: lookupSearchSchema,
  response: pickerPage({ clientID: z.string(), code: z.string(), name: z.string() }),
  responseKind: "json",
  access: abilities.settingsListsManage,
  summary:
    "Clients to pick for a list: code or name containing the search text, by name, a page at a time (startRow from 1).",
});

export const exclusionSkuList = defineContract({
  name: "Exclusion/GetSkuList",
  method: "POST",
  root: "variance",
  path: "Exclusion/GetSkuList",
  body: lookupSearchSchema,
  response: pickerPage({
    stockItemID: z.string(),
    code: z.string(),
    name: z.string(),
    stockType: z.enum(stockTypes),
  }),
  responseKind: "json",
  access: abilities.settingsListsManage,
  summary: "Items (services) to pick for a list: code or name containing the search text, by name.",
});

const codeList = (what: string) =>
  z
    .array(code)
    .max(10_000)
    .default([])
    .refine((codes) => new Set(codes).size === codes.length, `a ${what} code is listed twice`);

export const upsertExclusionBodySchema = z.object({
  /** Absent or null: a new list. */
  exclusionHeaderID: z.uuid().nullish(),
  name: nameSchema(100),
  active: z.boolean().default(true),
  /** Codes of the organisation's clients (a code already on the list may name one that is gone). */
  clientCodes: codeList("client"),
  /** Codes of the organisation's items (services). */
  itemCodes: codeList("item"),
});
export type UpsertExclusionBody = z.input<typeof upsertExclusionBodySchema>;

export const upsertExclusion = defineContract({
  name: "Exclusion/UpsertExclusion",
  method: "POST",
  root: "variance",
  path: "Exclusion/UpsertExclusion",
  body: upsertExclusionBodySchema,
  response: exclusionListSchema,
  responseKind: "json",
  access: abilities.settingsListsManage,
  policy: "never",
  changesData: true,
  summary:
    "Create a list (no exclusionHeaderID) or replace one: its name, whether it is active, its clients and items. Every number follows at once.",
});

export const deleteExclusion = defineContract({
  name: "Exclusion/DeleteExclusion",
  method: "DELETE",
  root: "variance",
  path: "Exclusion/DeleteExclusion",
  query: exclusionIdQuery,
  response: emptySchema,
  responseKind: "empty",
  access: abilities.settingsListsManage,
  policy: "never",
  changesData: true,
  summary: "Delete a list; what it left out counts again at once.",
});
