import { randomUUID } from "node:crypto";
import {
  type AbilityRef,
  abilityKey,
  accessAbilities,
  type Contract,
  contractPath,
  contractRoutePattern,
  contracts,
  missingAbilityMessage,
} from "@varia/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { abilityCatalogue } from "../src/auth/abilities";
import { createApiToken } from "../src/auth/api-tokens";
import { getServerSecret } from "../src/auth/server-secret";
import { createSession } from "../src/auth/sessions";
import "../src/db/settings-schema";
import { issueXsrfToken } from "../src/auth/xsrf";
import { type Caller, type MatrixFixture, type MatrixInput, matrix, tokenWith } from "./authorization-matrix";
import { Browser, describeWithServer } from "./harness";

/** The callers of every call: people, an admin's full token, and a token of every single ability. */
const callers: Caller[] = [
  "anonymous",
  "otherTenant",
  "plainUser",
  "lacksAbility",
  "apiToken",
  "admin",
  ...abilityCatalogue.map(tokenWith),
];

const isToken = (caller: Caller) => caller === "apiToken" || caller.startsWith("token:");

/** The status each caller gets, from the contract's access and the entry's exceptions. */
function expectedStatus(contract: Contract, caller: Caller, allowed: number): number {
  const { access } = contract;
  if (access === "public") return allowed;
  if (caller === "anonymous" || caller === "otherTenant") return 401;
  // A token does only what its abilities name: of the calls that name none, it only reads.
  if (access === "authenticated") return isToken(caller) && contract.method !== "GET" ? 403 : allowed;
  // A token of one ability may call what names that ability (alone or among others).
  if (caller.startsWith("token:"))
    return accessAbilities(access).some((ability) => caller === tokenWith(ability)) ? allowed : 403;
  return caller === "plainUser" || caller === "lacksAbility" ? 403 : allowed;
}

describe("authorization matrix entries", () => {
  it("has an entry for every contract, and none for a contract that does not exist", () => {
    const names = Object.keys(contracts);
    expect(
      names.filter((name) => !(name in matrix)),
      "contracts without a matrix entry",
    ).toEqual([]);
    expect(Object.keys(matrix).filter((name) => !names.includes(name))).toEqual([]);
  });
});

/**
 * The routes the server has besides its contracts, each open to anyone on purpose: health and
 * readiness, the API's description, the operator's metrics (their own Bearer token), the missing-
 * provider answers of single sign-on (docs/security.md, "Abilities and who may call"). The web app's
 * files (`GET *`, when it is built) are left out: they are the same for everyone.
 */
const routesBesideContracts = [
  "GET /healthz",
  "GET /readyz",
  "GET /api/openapi.json",
  "GET /metrics",
  ...["SingleSignOn", "SingleSignUp", "SingleSignOnCallback", "SingleSignUpCallback"].flatMap((path) => [
    `GET /api/Auth/${path}`,
    `GET /api/Auth/${path}/`,
  ]),
];

describeWithServer("authorization matrix", (ctx) => {
  it("covers every route of the server: each is a contract, or one of the few open to anyone on purpose", () => {
    // printRoutes draws a tree: a line's indent is its depth, and its path continues its parent's.
    const routes: string[] = [];
    const paths: string[] = [];
    for (const line of ctx().server.fastify.printRoutes({ commonPrefix: false }).split("\n")) {
      const match = /^([│ ]*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
      if (!match) continue;
      const depth = match[1]!.length / 4;
      const path = (depth ? (paths[depth - 1] ?? "") : "") + match[2];
      paths[depth] = path;
      for (const method of match[3]?.split(", ") ?? [])
        if (method !== "HEAD" && path !== "*") routes.push(`${method} ${path}`);
    }
    const ofContracts = new Set(
      Object.values(contracts).map((contract) => `${contract.method} ${contractRoutePattern(contract)}`),
    );
    expect(routes.filter((route) => !ofContracts.has(route)).sort()).toEqual(
      [...routesBesideContracts].sort(),
    );
    // And every contract is a route, but the demo visitor's two, which exist only in demo mode.
    expect([...ofContracts].filter((route) => !routes.includes(route)).sort()).toEqual([
      "POST /api/Demo/Signup",
      "POST /api/Demo/Verify",
    ]);
  });

  let fixture: MatrixFixture;
  let callAs: (caller: Caller, contract: Contract) => Promise<Record<string, string>>;

  beforeAll(async () => {
    const db = ctx().database.db;
    const org = await ctx().createOrganisation("matrix");
    const other = await ctx().createOrganisation("matrix-other");
    const xsrfKey = await getServerSecret(db, "xsrf");
    let counter = 0;
    const unique = (prefix: string) => `${prefix}-${++counter}-${randomUUID().slice(0, 8)}`;
    const createUser = async () => {
      const id = randomUUID();
      await db
        .insertInto("users")
        .values({
          organisation_id: org.organisationId,
          id,
          email: `${unique("u")}@matrix.example.com`,
          name: "Matrix user",
          password_hash: null,
          mfa_secret: null,
          disabled_at: null,
        })
        .execute();
      return id;
    };
    const createRole = async (grants: AbilityRef[] = []) => {
      const id = randomUUID();
      await db
        .insertInto("roles")
        .values({ organisation_id: org.organisationId, id, name: unique("role") })
        .execute();
      if (grants.length)
        await db
          .insertInto("role_abilities")
          .values(
            grants.map((a) => ({
              organisation_id: org.organisationId,
              role_id: id,
              module_system_name: a.moduleSystemName,
              feature_system_name: a.featureSystemName,
              ability_system_name: a.abilitySystemName,
            })),
          )
          .execute();
      return id;
    };
    const plainUserId = await createUser();
    const adminToken = await createApiToken(db, {
      organisationId: org.organisationId,
      userId: org.userId,
      name: "matrix",
    });
    const singleAbilityTokens = new Map<Caller, string>();
    for (const ability of abilityCatalogue) {
      const created = await createApiToken(db, {
        organisationId: org.organisationId,
        userId: org.userId,
        name: `matrix ${abilityKey(ability)}`,
        abilities: [ability],
      });
      singleAbilityTokens.set(tokenWith(ability), created.token);
    }
    fixture = {
      organisationId: org.organisationId,
      adminUserId: org.userId,
      plainUserId,
      createUser,
      createRole: () => createRole(),
      createToken: async () =>
        (
          await createApiToken(db, {
            organisationId: org.organisationId,
            userId: org.userId,
            name: unique("t"),
          })
        ).id,
      createExclusionList: async () => {
        const id = randomUUID();
        await db
          .insertInto("exclusion_lists")
          .values({
            organisation_id: org.organisationId,
            id,
            name: unique("list"),
            created_at: new Date(),
            updated_at: new Date(),
          })
          .execute();
        return id;
      },
      unique,
    };

    /** A user holding every ability but `needed` (any of which would do), made once per list. */
    const lacking = new Map<string, string>();
    const userLacking = async (needed: readonly AbilityRef[]) => {
      const keys = new Set(needed.map(abilityKey));
      const key = [...keys].sort().join(" ");
      let userId = lacking.get(key);
      if (!userId) {
        userId = await createUser();
        const roleId = await createRole(abilityCatalogue.filter((a) => !keys.has(abilityKey(a))));
        await db
          .insertInto("user_roles")
          .values({ organisation_id: org.organisationId, user_id: userId, role_id: roleId })
          .execute();
        lacking.set(key, userId);
      }
      return userId;
    };
    /** A fresh session per call, so that a logout or a password change never affects the next. */
    const sessionHeaders = async (organisationId: string, userId: string) => {
      const id = await createSession(db, {
        organisationId,
        userId,
        loginMethod: "Password",
        stayLoggedIn: false,
      });
      const xsrf = issueXsrfToken(xsrfKey, id);
      return { cookie: `varia_session=${id}; XSRF-TOKEN=${xsrf}`, "x-xsrf-token": xsrf };
    };
    callAs = async (caller, contract): Promise<Record<string, string>> => {
      switch (caller) {
        case "anonymous":
          return {};
        case "otherTenant":
          return sessionHeaders(other.organisationId, other.userId);
        case "plainUser":
          return sessionHeaders(org.organisationId, plainUserId);
        case "lacksAbility": {
          const needed = accessAbilities(contract.access);
          return sessionHeaders(
            org.organisationId,
            await userLacking(needed.length ? needed : [abilityCatalogue[0]!]),
          );
        }
        case "apiToken":
          return { authorization: `Bearer ${adminToken.token}` };
        case "admin":
          return sessionHeaders(org.organisationId, org.userId);
        default:
          return { authorization: `Bearer ${singleAbilityTokens.get(caller)}` };
      }
    };
  });

  for (const [name, contract] of Object.entries(contracts) as [keyof typeof contracts, Contract][]) {
    const entry = matrix[name];
    it(`${contract.method} ${contract.path} (${name})`, async () => {
      if (!entry) throw new Error(`${name} has no entry in test/authorization-matrix.ts`);
      const seen: Record<string, number> = {};
      const wanted: Record<string, number> = {};
      for (const caller of callers) {
        const input: MatrixInput =
          typeof entry.input === "function" ? await entry.input(fixture) : (entry.input ?? {});
        const query = input.query ? `?${new URLSearchParams(input.query)}` : "";
        const browser = new Browser(ctx().tenantUrl("matrix"));
        const answer = await browser.request(
          contract.method,
          contractPath(contract, input.params) + query,
          contract.body ? (input.body ?? {}) : undefined,
          await callAs(caller, contract),
        );
        seen[caller] = answer.status;
        wanted[caller] = entry.expect?.[caller] ?? expectedStatus(contract, caller, entry.status ?? 200);
        if (seen[caller] !== wanted[caller]) seen[`${caller} said`] = answer.text.slice(0, 200) as never;
        // A caller refused for want of an ability is told which one would do.
        const needed = accessAbilities(contract.access);
        if (caller === "lacksAbility" && answer.status === 403 && needed.length)
          expect((JSON.parse(answer.text) as { message: string }).message).toBe(
            missingAbilityMessage(needed),
          );
      }
      expect(seen).toEqual(wanted);
    });
  }
});
