import { describe, expectTypeOf, it } from "vitest";
import type { loginOrganisation } from "./account";
import type { BodyOf, QueryOf, ResponseOf } from "./define-contract";
import type { exclusionClientList, getExclusionByID, upsertExclusion } from "./exclusions";
import type { CurrencyKey, currencies, putSubscriptionSettings } from "./organisation-settings";
import type { availableAbilities } from "./roles";
import type { getTimeZones } from "./system";
import type { putAnalyticsGeneral } from "./usage-records";

// Type tests (checked by tsc in the typecheck, never run): the inferred types of the settings calls.
describe("settings contracts", () => {
  it("an exclusion list is saved by codes and read with each entry's id, null when none has the code", () => {
    expectTypeOf<BodyOf<typeof upsertExclusion>>().toEqualTypeOf<{
      exclusionHeaderID?: string | null | undefined;
      name: string;
      active?: boolean | undefined;
      clientCodes?: string[] | undefined;
      itemCodes?: string[] | undefined;
    }>();
    expectTypeOf<QueryOf<typeof getExclusionByID>>().toEqualTypeOf<{ exclusionID: string }>();
    expectTypeOf<ResponseOf<typeof getExclusionByID>["clients"][number]>().toEqualTypeOf<{
      clientID: string | null;
      code: string;
      name: string;
    }>();
    expectTypeOf<
      ResponseOf<typeof exclusionClientList>["rows"][number]["exclusionHeaderIDs"]
    >().toEqualTypeOf<string[]>();
  });

  it("organisation settings take a supported currency and categories by item code", () => {
    expectTypeOf<BodyOf<typeof putSubscriptionSettings>["currencyCode"]>().toEqualTypeOf<CurrencyKey>();
    expectTypeOf<BodyOf<typeof putSubscriptionSettings>["itemCategories"][number]>().toEqualTypeOf<{
      code: string;
      category: "Recurring" | "Adhoc" | "Exclude";
    }>();
    expectTypeOf<BodyOf<typeof putSubscriptionSettings>["mfaPolicy"]>().toEqualTypeOf<
      "off" | "optional" | "required"
    >();
    expectTypeOf<ResponseOf<typeof currencies>["supportedCurrencies"][number]>().toEqualTypeOf<{
      key: string;
      name: string;
      forcedLocale: string;
    }>();
  });

  it("time zones, the login view's organisation, analytics records and grouped abilities", () => {
    expectTypeOf<ResponseOf<typeof getTimeZones>>().toEqualTypeOf<{ id: string; name: string }[]>();
    expectTypeOf<ResponseOf<typeof loginOrganisation>>().toEqualTypeOf<{ organisationName: string | null }>();
    expectTypeOf<BodyOf<typeof putAnalyticsGeneral>[number]["recordType"]>().toEqualTypeOf<string>();
    expectTypeOf<
      ResponseOf<typeof availableAbilities>[number]["features"][number]["abilities"][number]
    >().toEqualTypeOf<{ moduleSystemName: string; featureSystemName: string; abilitySystemName: string }>();
  });
});
