import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../http/deps";

/** Lookups, reports and help text of spec 7.4. */
export async function reportRoutes(_app: FastifyInstance, _deps: AppDeps) {}
