import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { sql } from "kysely";
import { createApiToken } from "../auth/api-tokens";
import { generatePassword, hashPassword } from "../auth/passwords";
import type { Schema } from "../db/schema";

export interface CreateOrganisationInput {
  tenant: string;
  name: string;
  adminEmail: string;
  adminName?: string;
  /** When absent, a password is generated and returned once. */
  adminPassword?: string;
  isDemo?: boolean;
}

export interface CreatedOrganisation {
  organisationId: string;
  tenant: string;
  adminUserId: string;
  adminEmail: string;
  /** Present only when the password was generated. */
  generatedPassword?: string;
}

const tenantPattern = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** Creates an organisation and its first admin, in one transaction. */
export async function createOrganisation(
  db: Kysely<Schema>,
  input: CreateOrganisationInput,
): Promise<CreatedOrganisation> {
  const tenant = input.tenant.toLowerCase();
  if (!tenantPattern.test(tenant) || tenant === "app") {
    throw new Error(`Invalid tenant '${input.tenant}': use lower-case letters, digits and dashes, not 'app'`);
  }
  if (!/^[^@\s]+@[^@\s]+$/.test(input.adminEmail))
    throw new Error(`Invalid admin e-mail '${input.adminEmail}'`);
  const generatedPassword = input.adminPassword ? undefined : generatePassword();
  const password = input.adminPassword ?? generatedPassword!;
  if (password.length < 12) throw new Error("The admin password must have at least 12 characters");
  const passwordHash = await hashPassword(password);
  return db.transaction().execute(async (tx) => {
    const existing = await tx
      .selectFrom("organisations")
      .select("id")
      .where("tenant", "=", tenant)
      .executeTakeFirst();
    if (existing) throw new Error(`An organisation with tenant '${tenant}' already exists`);
    const organisationId = randomUUID();
    const adminUserId = randomUUID();
    await tx
      .insertInto("organisations")
      .values({
        id: organisationId,
        tenant,
        name: input.name,
        is_demo: input.isDemo ?? false,
        sign_up_step: null,
      })
      .execute();
    await tx
      .insertInto("users")
      .values({
        organisation_id: organisationId,
        id: adminUserId,
        email: input.adminEmail,
        name: input.adminName ?? input.adminEmail.split("@")[0] ?? "Admin",
        password_hash: passwordHash,
        is_admin: true,
        mfa_secret: null,
        disabled_at: null,
      })
      .execute();
    return { organisationId, tenant, adminUserId, adminEmail: input.adminEmail, generatedPassword };
  });
}

/** Creates an API token for a user of a tenant; the token is returned once. */
export async function createTokenForUser(
  db: Kysely<Schema>,
  input: { tenant: string; email: string; name: string },
) {
  const user = await db
    .selectFrom("users")
    .innerJoin("organisations", "organisations.id", "users.organisation_id")
    .select(["users.id as userId", "users.organisation_id as organisationId"])
    .where("organisations.tenant", "=", input.tenant.toLowerCase())
    .where(sql`lower(users.email)`, "=", input.email.toLowerCase())
    .executeTakeFirst();
  if (!user) throw new Error(`No user '${input.email}' in tenant '${input.tenant}'`);
  return createApiToken(db, { organisationId: user.organisationId, userId: user.userId, name: input.name });
}

export async function countOrganisations(db: Kysely<Schema>): Promise<number> {
  const row = await db
    .selectFrom("organisations")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
