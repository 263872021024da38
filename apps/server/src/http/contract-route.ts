import {
  accessAbilities,
  type Contract,
  contractRoutePattern,
  missingAbilityMessage,
} from "@varia/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type ZodType, z } from "zod";
import { verifyXsrfToken, xsrfCookieName, xsrfHeaderName } from "../auth/xsrf";
import { AppError, type FieldError } from "../errors";
import type { AuthContext } from "./auth-context";
import { holdsAbility } from "./auth-context";
import type { AppDeps } from "./deps";

type Part<S> = S extends z.ZodNever ? undefined : S extends ZodType ? z.output<S> : undefined;

export interface HandlerInput<C extends Contract> {
  params: C extends Contract<infer P, ZodType, ZodType, ZodType> ? Part<P> : never;
  query: C extends Contract<ZodType, infer Q, ZodType, ZodType> ? Part<Q> : never;
  body: C extends Contract<ZodType, ZodType, infer B, ZodType> ? Part<B> : never;
  auth: AuthContext | null;
  request: FastifyRequest;
  reply: FastifyReply;
}

type HandlerResult<C extends Contract> = z.input<C["response"]> | Promise<z.input<C["response"]>>;

function fieldErrors(error: z.ZodError, location: string): FieldError[] {
  return error.issues.map((issue) => ({
    field: issue.path.length ? issue.path.join(".") : location,
    message: issue.message,
  }));
}

/**
 * The fields of `value` whose text holds U+0000: PostgreSQL stores no NUL in text, so such a value
 * would fail in the database (a 500) wherever it went. Refused at the door, with its field named.
 */
function nulFields(value: unknown, path: string[] = [], out: FieldError[] = []): FieldError[] {
  if (typeof value === "string") {
    if (value.includes("\u0000"))
      out.push({ field: path.join(".") || "value", message: "must not contain the NUL character" });
  } else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) nulFields(item, [...path, String(i)], out);
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) nulFields(item, [...path, key], out);
    if (Object.keys(value).some((key) => key.includes("\u0000")))
      out.push({ field: path.join(".") || "value", message: "must not contain the NUL character" });
  }
  return out;
}

function parsePart<T extends ZodType | undefined>(schema: T, value: unknown, location: string) {
  if (!schema) return undefined;
  const nul = nulFields(value);
  if (nul.length)
    throw new AppError("BadRequest", `Invalid ${location}: ${nul.map((e) => e.field).join(", ")}`, nul);
  const result = schema.safeParse(value);
  if (!result.success) {
    const errors = fieldErrors(result.error, location);
    const names = [...new Set(errors.map((e) => e.field))].join(", ");
    throw new AppError("BadRequest", `Invalid ${location}: ${names}`, errors);
  }
  return result.data;
}

/**
 * Query keys are matched without regard to case (the spec mixes `DataType` and `dataType`). A key
 * given twice in different cases (`dateFrom` and `DateFrom`) is ambiguous: refused, naming it,
 * rather than one silently overwriting the other.
 */
function normaliseQuery(schema: ZodType | undefined, raw: Record<string, unknown>): Record<string, unknown> {
  if (!(schema instanceof z.ZodObject)) return raw;
  const byLower = new Map(Object.keys(schema.shape).map((key) => [key.toLowerCase(), key]));
  const out: Record<string, unknown> = {};
  const spelled = new Map<string, string[]>();
  for (const [key, value] of Object.entries(raw)) {
    const canonical = byLower.get(key.toLowerCase()) ?? key;
    spelled.set(canonical, [...(spelled.get(canonical) ?? []), key]);
    out[canonical] = value;
  }
  const twice = [...spelled].filter(([, keys]) => keys.length > 1);
  if (twice.length)
    throw new AppError(
      "BadRequest",
      `Invalid query: ${twice.map(([canonical]) => canonical).join(", ")}`,
      twice.map(([canonical, keys]) => ({
        field: canonical,
        message: `is given more than once (${keys.join(", ")}): send it once`,
      })),
    );
  return out;
}

const unsafeMethods = new Set(["POST", "PUT", "DELETE", "PATCH"]);

/** The largest body a public call (sign-in, reset, demo) reads: 16 KiB. */
export const publicBodyLimit = 16 * 1024;

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers["content-length"];
  return (length !== undefined && length !== "0") || request.headers["transfer-encoding"] !== undefined;
}

/**
 * Mounts one contract: checks who may call it, checks the XSRF token of cookie sessions on unsafe
 * methods, parses params, query and body by the contract's schemas (400 naming the fields),
 * and sends the answer the way the contract says.
 */
export function registerContract<C extends Contract>(
  app: FastifyInstance,
  deps: AppDeps,
  contract: C,
  handler: (input: HandlerInput<C>) => HandlerResult<C>,
): void {
  app.route({
    method: contract.method,
    url: contractRoutePattern(contract),
    config: { contract },
    // Who may call is settled before the body is read: a caller without the right gets 401 or
    // 403 whatever they send, and learns nothing from parse errors.
    onRequest: async (request) => {
      const auth = await request.resolveAuth();
      if (contract.access !== "public") {
        if (!auth) throw new AppError("Unauthorized", "Unauthorized");
        const needed = accessAbilities(contract.access);
        if (needed.length && !needed.some((ability) => holdsAbility(auth, ability))) {
          throw new AppError("Forbidden", missingAbilityMessage(needed));
        }
        // A token does only what its abilities name: of the calls that name none, it may read who
        // it is (pings, menu, terms status), never act on its user's own account.
        if (contract.access === "authenticated" && auth.tokenId && unsafeMethods.has(request.method)) {
          throw new AppError("Forbidden", "An API token cannot do this: sign in to change your own account.");
        }
      }
      // An unsafe call made with a session carries its XSRF token: every call that needs a caller,
      // and the public ones that act on the session (logout).
      const checked = contract.access !== "public" || contract.actsOnSession;
      if (checked && auth?.sessionId && unsafeMethods.has(request.method)) {
        const header = request.headers[xsrfHeaderName];
        const ok = verifyXsrfToken(
          deps.xsrfKey,
          auth.sessionId,
          request.cookies[xsrfCookieName],
          typeof header === "string" ? header : undefined,
        );
        if (!ok) throw new AppError("Forbidden", "The XSRF token is missing or invalid.");
      }
      // A JSON call takes JSON only: a form post or plain text from another site gets 415.
      if (contract.body && contract.bodyKind !== "multipart" && hasBody(request)) {
        const type = request.headers["content-type"] ?? "";
        if (!/^application\/json\s*(;|$)/i.test(type))
          throw new AppError("UnsupportedMediaType", "Unsupported content type: send application/json");
      }
    },
    // Calls open to anyone read small bodies only.
    ...(contract.access === "public" ? { bodyLimit: publicBodyLimit } : {}),
    handler: async (request, reply) => {
      const auth = await request.resolveAuth();
      const params = parsePart(contract.params, request.params, "path");
      const query = parsePart(
        contract.query,
        normaliseQuery(contract.query, request.query as Record<string, unknown>),
        "query",
      );
      const body = parsePart(contract.body, request.body ?? {}, "body");
      const result = await handler({ params, query, body, auth, request, reply } as HandlerInput<C>);
      if (reply.sent) return reply;
      switch (contract.responseKind) {
        case "empty":
          return reply.code(200).send();
        case "text":
          return reply.type("text/plain; charset=utf-8").send(result);
        case "file":
          return reply.send(result);
        case "json":
          return reply.type("application/json; charset=utf-8").send(JSON.stringify(result));
      }
    },
  });
}
