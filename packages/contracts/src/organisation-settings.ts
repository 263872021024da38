import { z } from "zod";
import { abilities } from "./abilities";
import { nameSchema } from "./common";
import { defineContract } from "./define-contract";
import { stockTypes } from "./filter-query";

/*
 * Organisation settings (docs/settings.md, "Organisation settings" and "Currencies"): the display name, the
 * currency with the locale its money is written in, item categories, the MFA policy, the time zone,
 * the terms versions and how many automatic backups are kept.
 */

/**
 * The currencies an organisation may keep its figures in. `forcedLocale` is the locale money of the
 * currency is written in on every screen and export (symbol, grouping, decimal mark), whatever the
 * browser's language.
 */
export const supportedCurrencies = [
  { key: "USD", name: "US dollar", forcedLocale: "en-US" },
  { key: "EUR", name: "Euro", forcedLocale: "en-IE" },
  { key: "GBP", name: "Pound sterling", forcedLocale: "en-GB" },
  { key: "AUD", name: "Australian dollar", forcedLocale: "en-AU" },
  { key: "NZD", name: "New Zealand dollar", forcedLocale: "en-NZ" },
  { key: "CAD", name: "Canadian dollar", forcedLocale: "en-CA" },
  { key: "SGD", name: "Singapore dollar", forcedLocale: "en-SG" },
  { key: "HKD", name: "Hong Kong dollar", forcedLocale: "en-HK" },
  { key: "ZAR", name: "South African rand", forcedLocale: "en-ZA" },
  { key: "INR", name: "Indian rupee", forcedLocale: "en-IN" },
  { key: "JPY", name: "Japanese yen", forcedLocale: "ja-JP" },
  { key: "CHF", name: "Swiss franc", forcedLocale: "de-CH" },
  { key: "SEK", name: "Swedish krona", forcedLocale: "sv-SE" },
  { key: "NOK", name: "Norwegian krone", forcedLocale: "nb-NO" },
  { key: "DKK", name: "Danish krone", forcedLocale: "da-DK" },
] as const;
export type CurrencyKey = (typeof supportedCurrencies)[number]["key"];
export const currencyKeys = supportedCurrencies.map((c) => c.key) as [CurrencyKey, ...CurrencyKey[]];

/** The locale money of a currency is written in; undefined for a currency not in the list. */
export function forcedLocaleOf(currency: string): string | undefined {
  return supportedCurrencies.find((c) => c.key === currency.toUpperCase())?.forcedLocale;
}

export const currencySchema = z.object({ key: z.string(), name: z.string(), forcedLocale: z.string() });

export const currencies = defineContract({
  name: "OrganisationSettings/Currencies",
  method: "GET",
  root: "variance",
  path: "OrganisationSettings/Currencies",
  response: z.object({ supportedCurrencies: z.array(currencySchema) }),
  responseKind: "json",
  access: "authenticated",
  summary: "The supported currencies, each with the locale its money is written in (forcedLocale).",
});

/**
 * Data/revenue classification of an item: only Recurring items count in MRR
 * (docs/methodology.md#categories-and-mrr).
 */
export const itemCategories = ["Recurring", "Adhoc", "Exclude"] as const;
export const itemCategorySchema = z.enum(itemCategories);

/** Multi-factor policy: off, optional (a user may skip enrolling) or required. */
export const mfaPolicies = ["off", "optional", "required"] as const;

export const itemCategoryRowSchema = z.object({
  stockItemID: z.string(),
  code: z.string(),
  name: z.string(),
  stockType: z.enum(stockTypes),
  category: itemCategorySchema,
});

export const subscriptionSettingsSchema = z.object({
  organisationID: z.string(),
  /** The tenant: the first label of the organisation's host name. */
  tenant: z.string(),
  /** The display name: the login view, the profile's organisationName, page headers. */
  organisationName: z.string(),
  currencyCode: z.string(),
  forcedLocale: z.string(),
  /** The category of every item without one of its own. */
  defaultCategory: itemCategorySchema,
  /** The items with a category of their own, by code; every other item takes defaultCategory. */
  itemCategories: z.array(itemCategoryRowSchema),
  mfaPolicy: z.enum(mfaPolicies),
  /** An IANA time zone (System/GetTimeZones). */
  timeZone: z.string(),
  /** How many of the automatic backups taken before imports are kept (backups made by hand are kept). */
  backupsToKeep: z.number().int(),
  /** The terms of service versions, newest first, and how many of the organisation's users accepted each. */
  termsVersions: z.array(
    z.object({
      termsVersionID: z.number().int(),
      effectiveAt: z.string(),
      /** The version in effect now. */
      current: z.boolean(),
      acceptedUsers: z.number().int(),
    }),
  ),
});
export type SubscriptionSettings = z.infer<typeof subscriptionSettingsSchema>;

export const getSubscriptionSettings = defineContract({
  name: "OrganisationSettings/SubscriptionSettings (GET)",
  method: "GET",
  root: "variance",
  path: "OrganisationSettings/SubscriptionSettings",
  response: subscriptionSettingsSchema,
  responseKind: "json",
  access: abilities.settingsOrganisationManage,
  summary: "The organisation's settings.",
});

export const subscriptionSettingsBodySchema = z.object({
  organisationName: nameSchema(200),
  currencyCode: z.enum(currencyKeys),
  defaultCategory: itemCategorySchema,
  /**
   * Every item with a category of its own, by code (the rows of the GET answer may be sent back):
   * an item not listed takes defaultCategory.
   */
  itemCategories: z
    .array(z.object({ code: z.string().trim().min(1).max(100), category: itemCategorySchema }))
    .max(100_000),
  mfaPolicy: z.enum(mfaPolicies),
  timeZone: z.string().min(1).max(64),
  backupsToKeep: z.number().int().min(1).max(100),
});
export type SubscriptionSettingsBody = z.input<typeof subscriptionSettingsBodySchema>;

export const putSubscriptionSettings = defineContract({
  name: "OrganisationSettings/SubscriptionSettings (PUT)",
  method: "PUT",
  root: "variance",
  path: "OrganisationSettings/SubscriptionSettings",
  body: subscriptionSettingsBodySchema,
  response: subscriptionSettingsSchema,
  responseKind: "json",
  access: abilities.settingsOrganisationManage,
  policy: "never",
  changesData: true,
  summary:
    "Replace the organisation's settings; a change of categories changes every number at once, a stricter MFA policy ends the sessions of users it now stops.",
});
