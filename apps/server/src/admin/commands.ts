import type { Database } from "../db/database";
import { seedDemo } from "../demo/seed-demo";
import { runQueuedImports } from "../imports/import-jobs";
import { createOrganisation, createTokenForUser } from "./organisations";

/** Where an admin command runs: inside the running server (its worker runs queued jobs) or alone. */
export interface AdminContext {
  dataDir: string;
  inServer: boolean;
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
    const queued = await seedDemo(database.db, context.dataDir, text(args, "tenant"));
    if (!context.inServer) await runQueuedImports(database);
    return queued;
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
