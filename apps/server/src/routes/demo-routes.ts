import { createHmac, randomInt, randomUUID } from "node:crypto";
import { abilities, demoContactUs, demoSignup, demoVerify, notBusinessEmailMessage } from "@varia/contracts";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { abilityCatalogue } from "../auth/abilities";
import { copyOrganisation } from "../auth/copy-organisation";
import { verifyCaptcha } from "../auth/recaptcha";
import { startSession, tooManyRequests } from "../auth/sign-in";
import { takeRateLimit } from "../auth/throttle";
import { AppError } from "../errors";
import { requestTenant } from "../http/auth-context";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";
import { limitByAddress } from "./login-routes";

/** DESIGN.md 5: a 6-digit code, valid 10 minutes, 5 tries, single use. */
export const demoCodePolicy = { lifetimeMs: 10 * 60_000, tries: 5 } as const;

const invalidCode = () => new AppError("Unauthorized", "The code is incorrect or has expired");

/** Whether an address may ask for a demo: it has a local part and a domain that is not blocked. */
export function isBusinessEmail(email: string, blocked: readonly string[]): boolean {
  const match = /^[^@\s]+@([^@\s]+\.[^@\s]+)$/.exec(email.trim());
  if (!match) return false;
  const domain = match[1]!.toLowerCase();
  return !blocked.some((b) => domain === b || domain.endsWith(`.${b}`));
}

/** A visitor's copy lasts a week; older copies go when the next visitor signs in. */
export const demoCopyLifetimeMs = 7 * 24 * 3600_000;

/** Deletes demo copies older than their lifetime (a few at a time); their rows go by cascade. */
export async function deleteStaleDemoCopies(deps: AppDeps): Promise<number> {
  const stale = await deps.db
    .selectFrom("organisations")
    .select("id")
    .where("is_demo", "=", true)
    .where("tenant", "like", "demo-%")
    .where("tenant", "<>", deps.config.demoTenant)
    .where(sql`created_at`, "<", new Date(deps.now().getTime() - demoCopyLifetimeMs))
    .limit(20)
    .execute();
  if (stale.length === 0) return 0;
  await deps.db
    .deleteFrom("organisations")
    .where(
      "id",
      "in",
      stale.map((o) => o.id),
    )
    .execute();
  return stale.length;
}

/** What a demo visitor may not do in their copy: invite people or mint tokens. */
const demoWithheld = new Set([abilities.settingsUsersManage, abilities.settingsTokensManage]);

export async function demoRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps;
  const codeHash = (requestId: string, code: string) =>
    createHmac("sha256", deps.xsrfKey).update(`demo:${requestId}:${code}`).digest("hex");

  registerContract(app, deps, demoSignup, async ({ body, request }) => {
    await limitByAddress(deps, request, "demo");
    const captcha = await verifyCaptcha(deps.config, body.recaptchaToken, "demoSignup", request.ip);
    if (!captcha.ok) {
      request.log.warn({ reason: captcha.reason }, "demo sign-up captcha refused");
      throw new AppError("BadRequest", "Demo signup failed, please try again", [
        { field: "recaptchaToken", message: "The captcha check failed" },
      ]);
    }
    const email = body.email.trim();
    if (!isBusinessEmail(email, deps.config.demoBlockedDomains))
      throw new AppError("BadRequest", notBusinessEmailMessage, [
        { field: "email", message: notBusinessEmailMessage },
      ]);
    const now = deps.now();
    const wait = await takeRateLimit(
      db,
      `demo:${email.toLowerCase()}`,
      { limit: 5, windowMs: 3600_000 },
      now,
    );
    if (wait) throw tooManyRequests(wait);
    const id = randomUUID();
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    await db
      .updateTable("demo_requests")
      .set({ used_at: now })
      .where(sql`lower(email)`, "=", email.toLowerCase())
      .where("used_at", "is", null)
      .execute();
    await db
      .insertInto("demo_requests")
      .values({
        id,
        email,
        name: body.name,
        phone_detected: body.phoneDetected,
        code_hash: codeHash(id, code),
        expires_at: new Date(now.getTime() + demoCodePolicy.lifetimeMs),
        used_at: null,
      })
      .execute();
    await deps.mailer.send({
      to: email,
      subject: `Your Varia demo login code: ${code}`,
      text: `Hello ${body.name},\n\nYour login code for the Varia demo is ${code}.\nIt works once, for the next 10 minutes.\n`,
    });
  });

  registerContract(app, deps, demoVerify, async ({ body, auth, request, reply }) => {
    await limitByAddress(deps, request, "demo");
    const now = deps.now();
    const pending = await db
      .selectFrom("demo_requests")
      .selectAll()
      .where(sql`lower(email)`, "=", body.email.toLowerCase())
      .where("used_at", "is", null)
      .where("expires_at", ">", now)
      .orderBy("created_at", "desc")
      .executeTakeFirst();
    if (!pending) throw invalidCode();
    // Count the try first, atomically: the sixth try fails whatever the code.
    const counted = await db
      .updateTable("demo_requests")
      .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
      .where("id", "=", pending.id)
      .where("attempts", "<", demoCodePolicy.tries)
      .where("used_at", "is", null)
      .executeTakeFirst();
    if (Number(counted.numUpdatedRows) !== 1) throw invalidCode();
    if (codeHash(pending.id, body.code) !== pending.code_hash) throw invalidCode();
    const used = await db
      .updateTable("demo_requests")
      .set({ used_at: now })
      .where("id", "=", pending.id)
      .where("used_at", "is", null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw invalidCode();

    const source = await db
      .selectFrom("organisations")
      .select("id")
      .where("tenant", "=", deps.config.demoTenant)
      .executeTakeFirst();
    if (!source) throw new AppError("Internal", "The demo organisation does not exist");
    const tenant = `demo-${randomUUID().replace(/-/g, "").slice(0, 16)}`;
    const organisationId = await copyOrganisation(db, source.id, { tenant, isDemo: true, createdAt: now });
    const userId = randomUUID();
    const roleId = randomUUID();
    await db.transaction().execute(async (tx) => {
      await tx
        .insertInto("users")
        .values({
          organisation_id: organisationId,
          id: userId,
          email: pending.email,
          name: pending.name,
          password_hash: null,
          is_admin: false,
          mfa_secret: null,
          disabled_at: null,
        })
        .execute();
      await tx
        .insertInto("roles")
        .values({ organisation_id: organisationId, id: roleId, name: "Demo visitor", description: "" })
        .onConflict((oc) => oc.doNothing())
        .execute();
      await tx
        .insertInto("role_abilities")
        .values(
          abilityCatalogue
            .filter((a) => ![...demoWithheld].some((w) => w.featureSystemName === a.featureSystemName))
            .map((a) => ({
              organisation_id: organisationId,
              role_id: roleId,
              module_system_name: a.moduleSystemName,
              feature_system_name: a.featureSystemName,
              ability_system_name: a.abilitySystemName,
            })),
        )
        .execute();
      await tx
        .insertInto("user_roles")
        .values({ organisation_id: organisationId, user_id: userId, role_id: roleId })
        .execute();
    });
    // The visitor stays on the demo host; the session points at their own copy.
    await startSession(deps, reply, {
      organisationId,
      userId,
      method: "DemoCode",
      stayLoggedIn: false,
      previousSessionId: auth?.sessionId,
      hostTenant: requestTenant(request, deps.config.defaultTenant).tenant,
    });
    request.log.info({ organisation: tenant }, "demo visitor signed in to a fresh copy");
    await deleteStaleDemoCopies(deps).catch((error: unknown) =>
      request.log.error({ err: error }, "deleting old demo copies failed"),
    );
  });

  registerContract(app, deps, demoContactUs, async ({ auth, body, request }) => {
    const { organisation, user } = auth!;
    const wait = await takeRateLimit(
      db,
      `contact:${organisation.id}:${user.id}`,
      { limit: 5, windowMs: 3600_000 },
      deps.now(),
    );
    if (wait) throw tooManyRequests(wait);
    await db
      .insertInto("contact_messages")
      .values({
        id: randomUUID(),
        organisation_id: organisation.id,
        user_id: user.id,
        email: user.email,
        message: body.userMessage,
      })
      .execute();
    await deps.mailer.send({
      to: deps.config.contactEmail,
      replyTo: user.email,
      subject: `Varia contact message from ${user.name}`,
      text: `${user.name} <${user.email}> (${organisation.name}, ${organisation.tenant}) wrote:\n\n${body.userMessage}\n`,
    });
    request.log.info({ organisation: organisation.tenant, user: user.id }, "contact message stored");
  });
}
