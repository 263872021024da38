import type { Database } from "../db/database";
import { seedDemo } from "../demo/seed-demo";
import { type ImportQueue, openImportQueue } from "../imports/import-queue";
import { createOrganisation, createTokenForUser } from "./organisations";

/**
 * Where an admin command runs: inside the running server (`jobs` is its queue, whose worker runs
 * queued jobs) or alone (a queued job runs before the command returns).
 */
export interface AdminContext {
  dataDir: string;
  jobs?: ImportQueue;
}

function text(args: Record<string, unknown>, name: string): string {
  const value = args[name];
  if (typeof value !== "string" || value.trim() === "") throw new Error(`Missing --${name}`);
  return value;
}

/** The admin commands of `varia-server`, runnable in-process or through the running server. */
export const adminCommands = {
  "org.create": ({ db }: Database, args: Record<string, unknown>) =>
    createOrganisation(db, {
      tenant: text(args, "tenant"),
      name: text(args, "name"),
      adminEmail: text(args, "admin-email"),
      adminPassword: typeof args.password === "string" && args.password ? args.password : undefined,
    }),
  "token.create": ({ db }: Database, args: Record<string, unknown>) =>
    createTokenForUser(db, {
      tenant: text(args, "tenant"),
      email: text(args, "email"),
      name: text(args, "name"),
    }),
  "seed-demo": async (database: Database, args: Record<string, unknown>, context: AdminContext) => {
    if (context.jobs) return seedDemo(context.jobs, context.dataDir, text(args, "tenant"));
    const jobs = await openImportQueue(database);
    try {
      const queued = await seedDemo(jobs, context.dataDir, text(args, "tenant"));
      await jobs.drain();
      return queued;
    } finally {
      await jobs.stop();
    }
  },
} as const;

export type AdminCommand = keyof typeof adminCommands;

export function runAdminCommand(
  database: Database,
  command: string,
  args: Record<string, unknown>,
  context: AdminContext,
) {
  if (!Object.hasOwn(adminCommands, command)) throw new Error(`Unknown admin command '${command}'`);
  return adminCommands[command as AdminCommand](database, args, context);
}
