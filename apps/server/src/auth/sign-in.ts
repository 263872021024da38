import type { FastifyReply } from "fastify";
import type { ServerConfig } from "../config";
import { AppError } from "../errors";
import { type LoginMethod, sessionCookieName } from "../http/auth-context";
import type { AppDeps } from "../http/deps";
import { createSession, deleteSession, sessionIdleMs } from "./sessions";
import { lockedReason } from "./throttle";
import { issueXsrfToken, xsrfCookieName } from "./xsrf";

export function setSessionCookies(
  deps: AppDeps,
  reply: FastifyReply,
  sessionId: string,
  stayLoggedIn: boolean,
) {
  const secure = deps.config.secureCookies;
  const maxAge = stayLoggedIn ? sessionIdleMs.stayLoggedIn / 1000 : undefined;
  reply.setCookie(sessionCookieName(secure), sessionId, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure,
    maxAge,
  });
  reply.setCookie(xsrfCookieName, issueXsrfToken(deps.xsrfKey, sessionId), {
    path: "/",
    httpOnly: false,
    sameSite: "lax",
    secure,
    maxAge,
  });
}

export function clearSessionCookies(deps: AppDeps, reply: FastifyReply) {
  const secure = deps.config.secureCookies;
  reply.clearCookie(sessionCookieName(secure), { path: "/", secure });
  reply.clearCookie(xsrfCookieName, { path: "/", secure });
}

/**
 * Completes a sign-in: always a new session id (the one the browser held before ends), the
 * session cookie and its XSRF token.
 */
export async function startSession(
  deps: AppDeps,
  reply: FastifyReply,
  input: {
    organisationId: string;
    userId: string;
    method: LoginMethod;
    stayLoggedIn: boolean;
    previousSessionId?: string;
    hostTenant?: string | null;
  },
): Promise<string> {
  if (input.previousSessionId) await deleteSession(deps.db, input.previousSessionId);
  const sessionId = await createSession(
    deps.db,
    {
      organisationId: input.organisationId,
      userId: input.userId,
      loginMethod: input.method,
      stayLoggedIn: input.stayLoggedIn,
      hostTenant: input.hostTenant,
    },
    deps.now(),
  );
  setSessionCookies(deps, reply, sessionId, input.stayLoggedIn);
  return sessionId;
}

/** The site of a tenant, from configuration (never from the request's Host header). */
export function tenantSiteUrl(config: Pick<ServerConfig, "publicUrl">, tenant: string): string {
  const url = new URL(config.publicUrl);
  const labels = url.hostname.split(".");
  url.hostname = labels[0] === "app" ? [tenant, ...labels.slice(1)].join(".") : `${tenant}.${url.hostname}`;
  return url.toString().replace(/\/$/, "");
}

export function lockedError(seconds: number) {
  return new AppError("TooManyRequests", lockedReason, undefined, { "retry-after": String(seconds) });
}

export function tooManyRequests(seconds: number) {
  return new AppError("TooManyRequests", "Too many requests. Please try again later", undefined, {
    "retry-after": String(seconds),
  });
}
