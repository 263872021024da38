import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../http/deps";

/** The analytics calls of spec 7.3, every number from @varia/variance. */
export async function analyticsRoutes(_app: FastifyInstance, _deps: AppDeps) {}
