import { type Contract, contractPath, contracts } from "@varia/contracts";
import fc from "fast-check";
import { beforeAll, expect, it, vi } from "vitest";
import { createTokenForUser } from "../src/admin/organisations";
import { getServerSecret } from "../src/auth/server-secret";
import { createSession } from "../src/auth/sessions";
import { issueXsrfToken } from "../src/auth/xsrf";
import { seedDemo } from "../src/demo/seed-demo";
import {
  arbitraryOf,
  multipartArbitrary,
  paramsArbitrary,
  queryArbitrary,
  rawQueryArbitrary,
} from "./contract-arbitraries";
import { describeWithServer, localFetch } from "./harness";

/** Requests per contract (FUZZ_RUNS to look harder). */
const runs = Number(process.env.FUZZ_RUNS ?? 12);

/**
 * Random but well-formed values for every contract's path, query and body, sent through real HTTP
 * by a signed-in admin (a session, or an API token) of an organisation holding the demo business:
 * no answer may be a 5xx. The values come from the zod contracts (contract-arbitraries.ts), so a
 * new contract is fuzzed as soon as it exists.
 */
describeWithServer(
  "every contract under random input",
  (ctx) => {
    const tenant = "fuzz";
    let callers: (() => Promise<Record<string, string>>)[] = [];

    beforeAll(async () => {
      const db = ctx().database.db;
      const org = await ctx().createOrganisation(tenant);
      const queued = await seedDemo(ctx().server.jobs, ctx().config.dataDir, tenant);
      await vi.waitFor(
        async () =>
          expect(
            (
              await db
                .selectFrom("import_jobs")
                .select("status")
                .where("id", "=", queued.jobGuid)
                .executeTakeFirstOrThrow()
            ).status,
          ).toBe("Completed"),
        { timeout: 60_000, interval: 100 },
      );
      const xsrfKey = await getServerSecret(db, "xsrf");
      const { token } = await createTokenForUser(db, { tenant, email: org.email, name: "fuzz" });
      callers = [
        // A fresh session each time: a call may end it (logout, a password change).
        async () => {
          const id = await createSession(db, {
            organisationId: org.organisationId,
            userId: org.userId,
            loginMethod: "Password",
            stayLoggedIn: false,
          });
          const xsrf = issueXsrfToken(xsrfKey, id);
          return { cookie: `varia_session=${id}; XSRF-TOKEN=${xsrf}`, "x-xsrf-token": xsrf };
        },
        async () => ({ authorization: `Bearer ${token}` }),
      ];
    }, 120_000);

    for (const [name, contract] of Object.entries(contracts) as [string, Contract][]) {
      it(`${contract.method} ${contract.path} (${name}) never answers 5xx`, {
        timeout: 120_000,
      }, async () => {
        const body: fc.Arbitrary<{ contentType?: string; body?: string }> =
          contract.bodyKind === "multipart"
            ? multipartArbitrary
            : contract.body
              ? arbitraryOf(contract.body).map((value) =>
                  value === undefined ? {} : { contentType: "application/json", body: JSON.stringify(value) },
                )
              : fc.constant({});
        await fc.assert(
          fc.asyncProperty(
            paramsArbitrary(contract),
            queryArbitrary(contract),
            body,
            rawQueryArbitrary,
            fc.nat({ max: callers.length - 1 }),
            async (params, query, sent, raw, caller) => {
              const parts = [
                ...(query.length ? [String(new URLSearchParams(query))] : []),
                ...(raw ? [raw] : []),
              ];
              const search = parts.length ? `?${parts.join("&")}` : "";
              const path = contractPath(contract, params) + search;
              const answer = await localFetch(`${ctx().tenantUrl(tenant)}${path}`, {
                method: contract.method,
                headers: {
                  ...(await callers[caller]!()),
                  ...(sent.contentType ? { "content-type": sent.contentType } : {}),
                },
                body: sent.body,
              });
              const text = await answer.text();
              if (answer.status >= 500)
                throw new Error(
                  `${contract.method} ${path} ${sent.body ?? ""} answered ${answer.status}: ${text}`,
                );
            },
          ),
          { numRuns: runs },
        );
      });
    }
  },
  { env: () => ({ VARIA_DEMO_MODE: "true", VARIA_AUTH_RATE_LIMIT_PER_IP: "100000" }) },
);
