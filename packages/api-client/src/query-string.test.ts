import { defineContract } from "@varia/contracts";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildQueryString, checkQuery, encodeQueryValue } from "./query-string";

describe("query strings", () => {
  it("sends periods as year-month, a bare year as the year, and dates as their calendar month", () => {
    expect(encodeQueryValue("d", { yearNo: 2024, monthNo: 1 })).toBe("2024-01");
    expect(encodeQueryValue("d", { yearNo: 2024, monthNo: 12, dayNo: 31 })).toBe("2024-12");
    expect(encodeQueryValue("d", { yearNo: 2024 })).toBe("2024");
    expect(encodeQueryValue("d", new Date(2023, 11, 31, 23, 59))).toBe("2023-12");
    expect(() => encodeQueryValue("d", new Date(Number.NaN))).toThrow(
      "The parameter 'd' is not a valid date.",
    );
    expect(() => encodeQueryValue("d", { a: 1 })).toThrow(
      "The parameter 'd' cannot be sent in a query string.",
    );
  });

  it("repeats the key for each item of an array, leaves out undefined values, and escapes text", () => {
    expect(buildQueryString({ ids: ["1", "2"], skip: undefined, q: "a&b c", n: 0, on: true })).toBe(
      "?ids=1&ids=2&q=a%26b+c&n=0&on=true",
    );
    expect(buildQueryString({ ids: [] })).toBe("");
    expect(buildQueryString(undefined)).toBe("");
  });

  it("reads required and optional from the contract's zod shape (defaults and nullish count as optional)", () => {
    const contract = defineContract({
      name: "Test/Shape",
      method: "GET",
      root: "variance",
      path: "Test/Shape",
      query: z.object({
        dataType: z.string(),
        periodCount: z.number().default(8),
        clientID: z.string().nullish(),
        stockType: z.enum(["Subscription", "Product", "Hourly"]).optional(),
      }),
      response: z.void(),
      responseKind: "empty",
      access: "public",
    });
    expect(() => checkQuery(contract, { dataType: "Revenue" })).not.toThrow();
    expect(() => checkQuery(contract, {})).toThrow(
      "The parameter 'dataType' must be defined and cannot be null.",
    );
    expect(() => checkQuery(contract, { dataType: "Revenue", periodCount: null })).toThrow(
      "The parameter 'periodCount' cannot be null.",
    );
    expect(() => checkQuery(contract, { dataType: "Revenue", clientID: null })).toThrow(
      "The parameter 'clientID' cannot be null.",
    );
    expect(() => checkQuery(contract, { dataType: "Revenue", stockType: undefined })).not.toThrow();
  });
});
