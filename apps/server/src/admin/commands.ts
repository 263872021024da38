import type { Kysely } from "kysely";
import type { Schema } from "../db/schema";
import { createOrganisation, createTokenForUser } from "./organisations";

function text(args: Record<string, unknown>, name: string): string {
  const value = args[name];
  if (typeof value !== "string" || value.trim() === "") throw new Error(`Missing --${name}`);
  return value;
}

/** The admin commands of `varia-server`, runnable in-process or through the running server. */
export const adminCommands = {
  "org.create": (db: Kysely<Schema>, args: Record<string, unknown>) =>
    createOrganisation(db, {
      tenant: text(args, "tenant"),
      name: text(args, "name"),
      adminEmail: text(args, "admin-email"),
      adminPassword: typeof args.password === "string" && args.password ? args.password : undefined,
    }),
  "token.create": (db: Kysely<Schema>, args: Record<string, unknown>) =>
    createTokenForUser(db, {
      tenant: text(args, "tenant"),
      email: text(args, "email"),
      name: text(args, "name"),
    }),
} as const;

export type AdminCommand = keyof typeof adminCommands;

export function runAdminCommand(db: Kysely<Schema>, command: string, args: Record<string, unknown>) {
  if (!Object.hasOwn(adminCommands, command)) throw new Error(`Unknown admin command '${command}'`);
  return adminCommands[command as AdminCommand](db, args);
}
