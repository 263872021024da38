import { randomUUID } from "node:crypto";
import { abilities, type JobStatus } from "@varia/contracts";
import type { FastifyBaseLogger } from "fastify";
import { type Kysely, sql } from "kysely";
import { abilityCatalogue } from "../auth/abilities";
import type { Schema } from "../db/schema";
import type { ImportQueue } from "../imports/import-queue";
import { seedDemo } from "./seed-demo";

/** What a demo visitor may not do in their organisation: invite people or mint tokens. */
const demoWithheld = new Set([abilities.settingsUsersManage, abilities.settingsTokensManage]);

/** The abilities of a demo visitor's role: everything but `demoWithheld`. */
export const demoVisitorAbilities = abilityCatalogue.filter(
  (a) => ![...demoWithheld].some((w) => w.featureSystemName === a.featureSystemName),
);

/** How long Demo/Verify waits for the visitor's data before it signs them in anyway. */
export const demoDataWaitMs = 60_000;

const finished: readonly JobStatus[] = ["Completed", "Failed", "FailedPermanently"];

/**
 * A demo visitor's own organisation (`demo-<random>`, `is_demo`), holding the generated demo
 * business and nothing else: the organisation, the visitor and their role are written in one
 * transaction, then the demo business is loaded through the import path, as an upload would be
 * (a job of the import queue). Nothing is copied from any other organisation.
 *
 * Resolves once the job has ended, so the visitor's first screen shows the data; after
 * `waitMs` it resolves anyway and the data arrives while they look (the job runs on).
 */
export async function createDemoVisitor(
  deps: { db: Kysely<Schema>; jobs: ImportQueue; dataDir: string; now: () => Date; log: FastifyBaseLogger },
  visitor: { email: string; name: string },
  waitMs = demoDataWaitMs,
): Promise<{ organisationId: string; userId: string; tenant: string }> {
  const { db } = deps;
  const organisationId = randomUUID();
  const userId = randomUUID();
  const roleId = randomUUID();
  const tenant = `demo-${randomUUID().replace(/-/g, "").slice(0, 16)}`;
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto("organisations")
      .values({
        id: organisationId,
        tenant,
        name: "Demo Company",
        is_demo: true,
        sign_up_step: null,
        created_at: sql`${deps.now()}`,
      })
      .execute();
    await tx
      .insertInto("users")
      .values({
        organisation_id: organisationId,
        id: userId,
        email: visitor.email,
        name: visitor.name,
        password_hash: null,
        is_admin: false,
        mfa_secret: null,
        disabled_at: null,
      })
      .execute();
    await tx
      .insertInto("roles")
      .values({ organisation_id: organisationId, id: roleId, name: "Demo visitor", description: "" })
      .execute();
    await tx
      .insertInto("role_abilities")
      .values(
        demoVisitorAbilities.map((a) => ({
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
  const job = await seedDemo(deps.jobs, deps.dataDir, tenant);
  const status = await waitForJob(db, organisationId, job.jobGuid, waitMs);
  if (status !== "Completed")
    deps.log.warn({ organisation: tenant, job: job.jobGuid, status }, "the demo data is not loaded yet");
  return { organisationId, userId, tenant };
}

/**
 * The job's status once it has ended, or its status when `waitMs` runs out. Read from its row, so
 * it holds whichever server's worker runs it.
 */
async function waitForJob(
  db: Kysely<Schema>,
  organisationId: string,
  jobId: string,
  waitMs: number,
): Promise<JobStatus | undefined> {
  const deadline = performance.now() + waitMs;
  for (let pause = 20; ; pause = Math.min(pause * 2, 250)) {
    const row = await db
      .selectFrom("import_jobs")
      .select("status")
      .where("organisation_id", "=", organisationId)
      .where("id", "=", jobId)
      .executeTakeFirst();
    const status = row?.status as JobStatus | undefined;
    if (!status || finished.includes(status) || performance.now() >= deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}
