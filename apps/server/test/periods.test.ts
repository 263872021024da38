import { type Contract, type ContractName, contractPath, contracts, supportedMonths } from "@varia/contracts";
import { beforeAll, expect, it } from "vitest";
import { z } from "zod";
import { createTokenForUser } from "../src/admin/organisations";
import type { MatrixFixture, MatrixInput } from "./authorization-matrix";
import { matrix } from "./authorization-matrix";
import { describeWithServer, localFetch } from "./harness";

/** Every field of a contract's query or body that takes a year-month: it accepts 2025-06 and not 2025-13. */
function periodFields(schema: z.ZodType | undefined): string[] {
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>)
    .filter(([, field]) => field.safeParse("2025-06").success && !field.safeParse("2025-13").success)
    .map(([name]) => name);
}

/** The contracts with a period field, where it sits, and the matrix's valid input to vary. */
const cases = (Object.entries(contracts) as [ContractName, Contract][]).flatMap(([name, contract]) => [
  ...periodFields(contract.query).map((field) => ({ name, contract, where: "query" as const, field })),
  ...periodFields(contract.body).map((field) => ({ name, contract, where: "body" as const, field })),
]);

describeWithServer("periods at the contract", (ctx) => {
  let call: (contract: Contract, input: MatrixInput) => Promise<{ status: number; json: unknown }>;
  beforeAll(async () => {
    const org = await ctx().createOrganisation("periods");
    const { token } = await createTokenForUser(ctx().database.db, {
      tenant: "periods",
      email: org.email,
      name: "p",
    });
    call = async (contract, input) => {
      const query = input.query ? `?${new URLSearchParams(input.query)}` : "";
      const answer = await localFetch(
        `${ctx().tenantUrl("periods")}${contractPath(contract, input.params)}${query}`,
        {
          method: contract.method,
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: contract.method === "GET" ? undefined : JSON.stringify(input.body ?? {}),
        },
      );
      const text = await answer.text();
      return { status: answer.status, json: text.startsWith("{") ? JSON.parse(text) : text };
    };
  });

  it("finds the period fields of the analytics, variance, report and export calls", () => {
    const named = new Set(cases.map((c) => c.name));
    for (const name of [
      "gridGeneralKpi",
      "getVariance",
      "tableInvoiceData",
      "overviewKpi",
      "activityTable",
      "reportRun",
      "exportRawData",
      "trendChart",
    ] as const)
      expect(named, name).toContain(name);
  });

  async function inputWith(name: ContractName, where: "query" | "body", field: string, value: string) {
    const entry = matrix[name]!;
    const base: MatrixInput =
      typeof entry.input === "function" ? await entry.input({} as MatrixFixture) : (entry.input ?? {});
    return where === "query"
      ? { ...base, query: { ...base.query, [field]: value } }
      : { ...base, body: { ...(base.body as object), [field]: value } };
  }

  for (const { name, contract, where, field } of cases) {
    it(`${name}: ${where} ${field} of year 0000, 1899 or 3000 is refused with 400 naming it`, async () => {
      for (const value of ["0000-01", "0000-12", "1899-12", "3000-01", "9999-12"]) {
        const answer = await call(contract, await inputWith(name, where, field, value));
        expect(answer.status, `${field}=${value}: ${JSON.stringify(answer.json)}`).toBe(400);
        expect(JSON.stringify(answer.json), value).toContain(`"field":"${field}"`);
      }
    });

    it(`${name}: ${where} ${field} at the ends of the range is answered`, async () => {
      for (const value of [supportedMonths.first, supportedMonths.last]) {
        const answer = await call(contract, await inputWith(name, where, field, value));
        expect(answer.status, `${field}=${value}: ${JSON.stringify(answer.json)}`).toBeLessThan(500);
      }
    });
  }

  it("takes series at the ends of the range: 500 months back from the first, a forecast after the last", async () => {
    const trend = await call(contracts.trendChart, {
      query: {
        DataType: "Revenue",
        PeriodFrom: supportedMonths.first,
        PeriodTo: supportedMonths.first,
        RecordType: "Actual",
        PeriodMode: "Monthly",
        RecordTypeFrom: "Actual",
        RecordTypeTo: "Actual",
        ShowAdhoc: "true",
        PeriodCount: "500",
      },
    });
    expect(trend.status).toBe(200);
    const forecast = await call(contracts.reportRun, {
      body: { reportID: "forecast", dateFrom: "2999-11", dateTo: supportedMonths.last },
    });
    expect(forecast.status).toBe(200);
  });

  it("refuses help text asked for year 0 or a year beyond the range, naming the key", async () => {
    for (const filterParams of [{ dateTo: { yearNo: 0 } }, { dateFrom: "0000-05" }, { dateTo: "3000-01" }]) {
      const key = JSON.stringify({ name: "mrr", filterParams });
      const answer = await call(contracts.helpText, { query: { key } });
      expect(answer.status, key).toBe(400);
      expect(JSON.stringify(answer.json)).toContain('"field":"key.filterParams.');
    }
  });
});
