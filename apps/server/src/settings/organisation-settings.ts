import {
  forcedLocaleOf,
  type SubscriptionSettings,
  type SubscriptionSettingsBody,
  type supportedCurrencies,
} from "@varia/contracts";
import type { Kysely } from "kysely";
import { sql } from "kysely";
import { hashSecret } from "../auth/secret-tokens";
import type { Schema } from "../db/schema";
import { AppError, type FieldError } from "../errors";
import { canonicalTimeZone } from "./time-zones";
import "../db/invoice-schema";
import "../db/settings-schema";
import { namedByCode } from "../lines/dimension-names";

/*
 * The organisation's settings (docs/settings.md): the display name, currency, default category and
 * MFA policy live in its `organisations` row; the time zone, the number of automatic backups kept and
 * the versions of what the analysis counts live in `organisation_settings`, whose row is made on the
 * first change (until then the defaults below hold).
 */

export const settingDefaults = { timeZone: "UTC", backupsToKeep: 10 } as const;

/**
 * Bumps a version the cube cache checks (analytics/cube-cache.ts), inside the transaction that
 * makes the change: item categories (the cube is rebuilt) or exclusion lists (the ids are read again).
 */
export async function bumpAnalysisVersion(
  tx: Kysely<Schema>,
  organisationId: string,
  what: "categories" | "exclusions",
): Promise<void> {
  const column = what === "categories" ? "categories_version" : "exclusions_version";
  await sql`insert into organisation_settings (organisation_id, ${sql.ref(column)}) values (${organisationId}, 1)
    on conflict (organisation_id) do update
    set ${sql.ref(column)} = organisation_settings.${sql.ref(column)} + 1`.execute(tx);
}

/**
 * How many automatic backups taken before imports the organisation keeps (1 to 100, default 10);
 * backups made by hand are not counted. Read by whoever prunes backups.
 */
export async function backupsToKeep(db: Kysely<Schema>, organisationId: string): Promise<number> {
  const row = await db
    .selectFrom("organisation_settings")
    .select("backups_to_keep")
    .where("organisation_id", "=", organisationId)
    .executeTakeFirst();
  return row?.backups_to_keep ?? settingDefaults.backupsToKeep;
}

/** The organisation's settings as SubscriptionSettings answers them. */
export async function readOrganisationSettings(
  db: Kysely<Schema>,
  organisationId: string,
  now: Date,
): Promise<SubscriptionSettings> {
  const organisation = await db
    .selectFrom("organisations")
    .leftJoin("organisation_settings", "organisation_settings.organisation_id", "organisations.id")
    .select([
      "organisations.id",
      "organisations.tenant",
      "organisations.name",
      "organisations.currency_code",
      "organisations.default_category",
      "organisations.mfa_setting",
      "organisation_settings.time_zone",
      "organisation_settings.backups_to_keep",
    ])
    .where("organisations.id", "=", organisationId)
    .executeTakeFirstOrThrow();
  const [items, terms] = await Promise.all([
    db
      .selectFrom("items")
      .select(["id", "code", "name", "stock_type", "category"])
      .where("organisation_id", "=", organisationId)
      .where("category", "is not", null)
      .orderBy(sql`code collate "C"`)
      .execute(),
    sql<{ id: number; effective_at: unknown; accepted: number }>`
      select v.id, v.effective_at, (select count(*) from terms_acceptances a
        where a.organisation_id = ${organisationId} and a.terms_version_id = v.id)::int4 as accepted
      from terms_versions v order by v.effective_at desc, v.id desc`.execute(db),
  ]);
  const current = terms.rows.find((v) => new Date(v.effective_at as string) <= now)?.id;
  return {
    organisationID: organisation.id,
    tenant: organisation.tenant,
    organisationName: organisation.name,
    currencyCode: organisation.currency_code,
    forcedLocale: forcedLocaleOf(organisation.currency_code) ?? "en-US",
    defaultCategory: organisation.default_category,
    itemCategories: items.map((i) => ({
      stockItemID: String(i.id),
      code: i.code,
      name: namedByCode(i.name, i.code),
      stockType: i.stock_type,
      category: i.category!,
    })),
    mfaPolicy: organisation.mfa_setting,
    timeZone: organisation.time_zone ?? settingDefaults.timeZone,
    backupsToKeep: organisation.backups_to_keep ?? settingDefaults.backupsToKeep,
    termsVersions: terms.rows.map((v) => ({
      termsVersionID: Number(v.id),
      effectiveAt: new Date(v.effective_at as string).toISOString(),
      current: v.id === current,
      acceptedUsers: Number(v.accepted),
    })),
  };
}

type Body = Omit<SubscriptionSettingsBody, "currencyCode"> & {
  currencyCode: (typeof supportedCurrencies)[number]["key"];
};

export interface SavedSettings {
  /** Item categories or the default category changed: the numbers change. */
  categoriesChanged: boolean;
  /** Sessions ended because MFA became required for users without it. */
  sessionsEnded: number;
}

function badRequest(errors: FieldError[]): AppError {
  const fields = [...new Set(errors.map((e) => e.field))];
  return new AppError(
    "BadRequest",
    `Invalid body: ${fields.slice(0, 10).join(", ")}${fields.length > 10 ? ", …" : ""}`,
    errors,
  );
}

/**
 * Replaces the organisation's settings in one transaction; a bad field changes nothing. Item
 * categories are replaced as a whole: listed items take their category, every other item the
 * default. When the MFA policy becomes required, the sessions of users without MFA end (but the
 * caller's own), so nobody stays signed in without the second factor.
 */
export async function saveOrganisationSettings(
  db: Kysely<Schema>,
  organisationId: string,
  body: Body,
  caller: { sessionId?: string | undefined },
): Promise<SavedSettings> {
  const timeZone = canonicalTimeZone(body.timeZone);
  const errors: FieldError[] = [];
  if (!timeZone) errors.push({ field: "timeZone", message: `'${body.timeZone}' is not a time zone` });
  const seen = new Map<string, number>();
  body.itemCategories.forEach((entry, index) => {
    if (seen.has(entry.code))
      errors.push({ field: `itemCategories.${index}.code`, message: `'${entry.code}' is listed twice` });
    else seen.set(entry.code, index);
  });
  if (errors.length) throw badRequest(errors);

  return db.transaction().execute(async (tx) => {
    const before = await tx
      .selectFrom("organisations")
      .select(["default_category", "mfa_setting"])
      .where("id", "=", organisationId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const categoriesChanged = await replaceItemCategories(
      tx,
      organisationId,
      { before: before.default_category, after: body.defaultCategory },
      body.itemCategories.map((e, index) => ({ ...e, field: `itemCategories.${index}.code` })),
    );

    await tx
      .updateTable("organisations")
      .set({
        name: body.organisationName,
        currency_code: body.currencyCode,
        default_category: body.defaultCategory,
        mfa_setting: body.mfaPolicy,
      })
      .where("id", "=", organisationId)
      .execute();
    await tx
      .insertInto("organisation_settings")
      .values({ organisation_id: organisationId, time_zone: timeZone!, backups_to_keep: body.backupsToKeep })
      .onConflict((oc) =>
        oc
          .column("organisation_id")
          .doUpdateSet({ time_zone: timeZone!, backups_to_keep: body.backupsToKeep }),
      )
      .execute();

    let sessionsEnded = 0;
    if (body.mfaPolicy === "required" && before.mfa_setting !== "required") {
      let end = tx
        .deleteFrom("sessions")
        .where("organisation_id", "=", organisationId)
        .where("user_id", "in", (eb) =>
          eb
            .selectFrom("users")
            .select("id")
            .where("organisation_id", "=", organisationId)
            .where("mfa_enabled", "=", false),
        );
      if (caller.sessionId) end = end.where("id_hash", "<>", hashSecret(caller.sessionId));
      sessionsEnded = Number((await end.executeTakeFirst()).numDeletedRows);
    }
    return { categoriesChanged, sessionsEnded };
  });
}

/**
 * Inside the caller's transaction: the listed items take their own category and every other item's
 * is cleared (it falls back to the default category); the categories version is bumped when anything
 * changed, the default category included. A code that names no item is refused with its `field`.
 * Returns whether the categories changed (the caller then tells the cube cache, after the commit).
 */
export async function replaceItemCategories(
  tx: Kysely<Schema>,
  organisationId: string,
  defaultCategory: { before: string; after: string },
  entries: { code: string; category: "Recurring" | "Adhoc" | "Exclude"; field: string }[],
): Promise<boolean> {
  const explicit = await tx
    .selectFrom("items")
    .select(["code", "category"])
    .where("organisation_id", "=", organisationId)
    .where("category", "is not", null)
    .execute();
  const wanted = new Map(entries.map((e) => [e.code, e.category]));
  const known = new Set<string>();
  const codes = [...wanted.keys()];
  for (let i = 0; i < codes.length; i += 1000) {
    const rows = await tx
      .selectFrom("items")
      .select("code")
      .where("organisation_id", "=", organisationId)
      .where("code", "in", codes.slice(i, i + 1000))
      .execute();
    for (const row of rows) known.add(row.code);
  }
  const unknown = entries
    .filter((e) => !known.has(e.code))
    .map((e) => ({ field: e.field, message: `no item '${e.code}'` }));
  if (unknown.length) throw badRequest(unknown);

  const changed =
    defaultCategory.before !== defaultCategory.after ||
    explicit.length !== wanted.size ||
    explicit.some((row) => wanted.get(row.code) !== row.category);
  if (!changed) return false;
  const unlisted = explicit.filter((row) => !wanted.has(row.code)).map((row) => row.code);
  for (let i = 0; i < unlisted.length; i += 1000) {
    await tx
      .updateTable("items")
      .set({ category: null })
      .where("organisation_id", "=", organisationId)
      .where("code", "in", unlisted.slice(i, i + 1000))
      .execute();
  }
  for (const category of ["Recurring", "Adhoc", "Exclude"] as const) {
    const listed = entries.filter((e) => e.category === category).map((e) => e.code);
    for (let i = 0; i < listed.length; i += 1000) {
      await tx
        .updateTable("items")
        .set({ category })
        .where("organisation_id", "=", organisationId)
        .where("code", "in", listed.slice(i, i + 1000))
        .execute();
    }
  }
  await bumpAnalysisVersion(tx, organisationId, "categories");
  return true;
}
