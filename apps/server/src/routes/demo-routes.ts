import { createHmac, randomInt, randomUUID } from "node:crypto";
import { demoContactUs, demoSignup, demoVerify, notBusinessEmailMessage } from "@varia/contracts";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { sql } from "kysely";
import { verifyCaptcha } from "../auth/recaptcha";
import { startSession, tooManyRequests } from "../auth/sign-in";
import { takeRateLimit } from "../auth/throttle";
import { createDemoVisitor } from "../demo/demo-visitor";
import { AppError } from "../errors";
import { requestTenant } from "../http/auth-context";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";
import { limitByAddress } from "./login-routes";

/** docs/security.md, "Demo visitors": a 6-digit code, valid 10 minutes, 5 tries, single use. */
export const demoCodePolicy = { lifetimeMs: 10 * 60_000, tries: 5 } as const;

const invalidCode = () => new AppError("Unauthorized", "The code is incorrect or has expired");

/** Whether an address may ask for a demo: it has a local part and a domain that is not blocked. */
export function isBusinessEmail(email: string, blocked: readonly string[]): boolean {
  const match = /^[^@\s]+@([^@\s]+\.[^@\s]+)$/.exec(email.trim());
  if (!match) return false;
  const domain = match[1]!.toLowerCase();
  return !blocked.some((b) => domain === b || domain.endsWith(`.${b}`));
}

/**
 * A visitor's organisation lasts a week; older ones go after the next visitor is signed in, in the
 * background (docs/security.md, "Demo visitors").
 */
export const demoCopyLifetimeMs = 7 * 24 * 3600_000;

/**
 * Deletes visitors' organisations older than their lifetime (a few at a time); rows go by cascade.
 * Their connections are disconnected first, each grant revoked at its provider, best effort
 * (docs/integration.md, "Deleting an organisation"): a provider that refuses or is down is logged
 * and the organisation goes all the same.
 */
export async function deleteStaleDemoCopies(deps: AppDeps, log?: FastifyBaseLogger): Promise<number> {
  const stale = await deps.db
    .selectFrom("organisations")
    .select("id")
    .where("is_demo", "=", true)
    .where("tenant", "like", "demo-%")
    .where(sql`created_at`, "<", new Date(deps.now().getTime() - demoCopyLifetimeMs))
    .limit(20)
    .execute();
  if (stale.length === 0) return 0;
  for (const { id } of stale) {
    const disconnected = await deps.integrations.disconnectAll(id);
    for (const source of disconnected.sources) await deps.jobs.unschedule(source);
    log?.info(
      { organisation: id, connections: disconnected.connections, revoked: disconnected.revoked },
      "deleting an old demo organisation",
    );
  }
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

/**
 * Demo requests (docs/behaviour.md, "Demo request"). Sign-up and verification exist in demo mode only: elsewhere they are
 * not routes at all (404), so nobody can have mail sent or an organisation made through them.
 * A signed-in user may send a contact message in either mode.
 */
export async function demoRoutes(app: FastifyInstance, deps: AppDeps) {
  if (deps.config.demoMode) demoSignInRoutes(app, deps);
  const { db } = deps;

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
      kind: "contact",
    });
    request.log.info({ organisation: organisation.tenant, user: user.id }, "contact message stored");
  });
}

/** Demo/Signup mails a code to a business address; Demo/Verify signs the visitor in with it. */
function demoSignInRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps;
  // Old copies are deleted one clean-up at a time, after the visitor's answer: revoking a copy's
  // grants may wait on a provider, and the visitor should not. Closing the server waits for it.
  let cleanUp: Promise<void> = Promise.resolve();
  const deleteStaleCopiesLater = (log: FastifyBaseLogger) => {
    cleanUp = cleanUp.then(() =>
      deleteStaleDemoCopies(deps, log).then(
        () => undefined,
        (error: unknown) => log.error({ err: error }, "deleting old demo organisations failed"),
      ),
    );
  };
  app.addHook("onClose", () => cleanUp);
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
    // The mail carries no text of the request's: only the code, to the address that asked.
    await deps.mailer.send({
      to: email,
      subject: `Your Varia demo login code: ${code}`,
      text: `Hello,\n\nYour login code for the Varia demo is ${code}.\nIt works once, for the next 10 minutes.\n`,
      kind: "demo-code",
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

    // Their own organisation with the generated demo business, loaded before they are signed in.
    const { organisationId, userId, tenant } = await createDemoVisitor(
      { db, jobs: deps.jobs, dataDir: deps.config.dataDir, now: deps.now, log: request.log },
      { email: pending.email, name: pending.name },
    );
    // The visitor stays on the demo host; the session points at their own organisation.
    await startSession(deps, reply, {
      organisationId,
      userId,
      method: "DemoCode",
      stayLoggedIn: false,
      previousSessionId: auth?.sessionId,
      hostTenant: requestTenant(request, deps.config.defaultTenant).tenant,
    });
    request.log.info({ organisation: tenant }, "demo visitor signed in to their own organisation");
    deleteStaleCopiesLater(request.log);
  });
}
