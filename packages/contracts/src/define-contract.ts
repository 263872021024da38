import type { z } from "zod";

/** The two roots (docs/api.md#contracts): the general API root and the variance-analysis root below it. */
export const apiRoots = { api: "/api/", variance: "/api/variance/" } as const;
export type ApiRoot = keyof typeof apiRoots;

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/**
 * How the body of a successful answer is read: JSON, raw text, files, or no content (docs/api.md#contracts).
 */
export type ResponseKind = "json" | "text" | "file" | "empty";

/** An ability (docs/security.md#abilities-and-who-may-call): module, feature and ability system names. */
export interface AbilityRef {
  readonly moduleSystemName: string;
  readonly featureSystemName: string;
  readonly abilitySystemName: string;
}

/**
 * Who may call: anyone, any signed-in user, a user holding an ability, or a user holding any one of
 * a list of abilities (a picker two screens share). Admins hold every ability; an API token holds
 * those of its scope that its user holds. A token does only what its abilities name: an
 * `authenticated` call is open to it only when it reads (GET: who am I, my menu, my terms status);
 * one that acts on the user's own account (profile, password, MFA, terms, a contact message) takes
 * a signed-in session.
 */
export type Access = "public" | "authenticated" | AbilityRef | readonly [AbilityRef, ...AbilityRef[]];

/** The abilities of which a caller needs one; empty for public and authenticated calls. */
export function accessAbilities(access: Access): readonly AbilityRef[] {
  if (access === "public" || access === "authenticated") return [];
  return Array.isArray(access) ? access : [access as AbilityRef];
}

/** How the client retries and caches a call (docs/api.md#retries-and-caching). */
export type ClientPolicy = "default" | "lookup" | "never";

export interface Contract<
  Params extends z.ZodType = z.ZodType,
  Query extends z.ZodType = z.ZodType,
  Body extends z.ZodType = z.ZodType,
  Response extends z.ZodType = z.ZodType,
  Kind extends ResponseKind = ResponseKind,
> {
  /** The call's name (docs/api.md#the-calls-by-area), e.g. `Account/AuthorisedPing`. */
  readonly name: string;
  readonly method: HttpMethod;
  readonly root: ApiRoot;
  /** Relative to the root; path parameters as `{name}`. */
  readonly path: string;
  readonly params?: Params;
  readonly query?: Query;
  readonly body?: Body;
  /** `multipart` bodies are files; their parts are described by `body` where known. */
  readonly bodyKind?: "json" | "multipart";
  readonly response: Response;
  /** Kept as a literal type, so the client can type a `file` answer as a file. */
  readonly responseKind: Kind;
  readonly access: Access;
  /**
   * A public call that acts on the caller's session when there is one (logout): made with a session,
   * it carries the session's XSRF token, as every unsafe call of a signed-in caller does.
   */
  readonly actsOnSession?: boolean;
  /** Retry and cache policy of the client; `never` for calls that must not repeat (uploads). */
  readonly policy?: ClientPolicy;
  /**
   * Cache time to live in ms for cached calls (docs/api.md#retries-and-caching: actual periods 60 s, lookups
   * 20 min).
   */
  readonly cacheTtlMs?: number;
  /**
   * A successful call changes what other calls answer (an exclusion list, item categories): the
   * client forgets every answer it cached, so no figure it shows afterwards predates the change.
   */
  readonly changesData?: boolean;
  readonly summary?: string;
}

/** Declares a contract, keeping its literal types for inference. */
export function defineContract<
  Params extends z.ZodType = z.ZodNever,
  Query extends z.ZodType = z.ZodNever,
  Body extends z.ZodType = z.ZodNever,
  Response extends z.ZodType = z.ZodVoid,
  Kind extends ResponseKind = ResponseKind,
>(contract: Contract<Params, Query, Body, Response, Kind>): Contract<Params, Query, Body, Response, Kind> {
  return contract;
}

/** The full path of a contract with its path parameters filled in. */
export function contractPath(contract: Contract, params: Record<string, string> = {}): string {
  const relative = contract.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`The parameter '${name}' must be defined.`);
    return encodeURIComponent(value);
  });
  return apiRoots[contract.root] + relative;
}

/** The path pattern of a contract in the router's syntax (`:name`). */
export function contractRoutePattern(contract: Contract): string {
  return apiRoots[contract.root] + contract.path.replace(/\{(\w+)\}/g, ":$1");
}

export type ParamsOf<C> = C extends Contract<infer P, z.ZodType, z.ZodType, z.ZodType> ? z.input<P> : never;
export type QueryOf<C> = C extends Contract<z.ZodType, infer Q, z.ZodType, z.ZodType> ? z.input<Q> : never;
export type BodyOf<C> = C extends Contract<z.ZodType, z.ZodType, infer B, z.ZodType> ? z.input<B> : never;
export type ResponseOf<C> =
  C extends Contract<z.ZodType, z.ZodType, z.ZodType, infer R> ? z.output<R> : never;
