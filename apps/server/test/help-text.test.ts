import { cardHelpKeys } from "@varia/contracts";
import { beforeAll, expect, it } from "vitest";
import { createTokenForUser } from "../src/admin/organisations";
import { describeWithServer, localFetch } from "./harness";

/** A help text, or an error body. */
interface HelpAnswer {
  key: string;
  title: string;
  format: string;
  content: string;
  message: string;
  errors: { field: string; message: string }[];
}

describeWithServer("help text", (ctx) => {
  let token: string;

  beforeAll(async () => {
    const org = await ctx().createOrganisation("helps");
    ({ token } = await createTokenForUser(ctx().database.db, {
      tenant: "helps",
      email: org.email,
      name: "h",
    }));
  });

  async function help(key: string | null, auth = true) {
    const query = key === null ? "" : `?key=${encodeURIComponent(key)}`;
    const response = await localFetch(`${ctx().tenantUrl("helps")}/api/variance/helpText${query}`, {
      headers: auth ? { authorization: `Bearer ${token}` } : {},
    });
    return { status: response.status, json: (await response.json()) as HelpAnswer };
  }

  it("answers html or plain text by a plain key, whatever its case", async () => {
    const grr = await help("GRR");
    expect(grr.status).toBe(200);
    expect(grr.json).toEqual({
      key: "GRR",
      title: "Gross revenue retention",
      format: "html",
      content:
        "<p>GRR = (MRR<sub>from</sub> + churned + contraction) / MRR<sub>from</sub>.</p><p>Churned and contraction are negative, so GRR is at most 100 %. Not shown when MRR<sub>from</sub> is zero.</p>",
    });
    const arr = await help("arr");
    expect(arr.json).toEqual({
      key: "arr",
      title: "ARR",
      format: "text",
      content: "Annual recurring revenue: 12 x MRR of the month.",
    });
  });

  it("takes the key {name, filterParams: {dateFrom, dateTo}}, and names the periods", async () => {
    const arr = await help(
      JSON.stringify({ name: "arr", filterParams: { dateFrom: "2025-05", dateTo: "Jun-2025" } }),
    );
    expect(arr.status).toBe(200);
    expect(arr.json.content).toBe(
      "Annual recurring revenue: 12 x MRR of the month. Shown for Jun 2025 against May 2025.",
    );
    const nrr = await help(
      JSON.stringify({ name: "nrr", filterParams: { dateTo: { yearNo: 2025, monthNo: 6 } } }),
    );
    expect(nrr.json.format).toBe("html");
    expect(nrr.json.content.endsWith("<p>Shown for Jun 2025.</p>")).toBe(true);
    const plain = await help(JSON.stringify({ name: "report:forecast" }));
    expect(plain.json).toMatchObject({ key: "report:forecast", title: "Forecast", format: "text" });
  });

  it("has a text for every report of the catalogue", async () => {
    const reports = await localFetch(`${ctx().tenantUrl("helps")}/api/variance/Lookup/GetReportList`, {
      headers: { authorization: `Bearer ${token}` },
    }).then((r) => r.json() as Promise<{ reportID: string; description: string }[]>);
    expect(reports).toHaveLength(11);
    for (const report of reports) {
      const answer = await help(`report:${report.reportID}`);
      expect(answer.status, report.reportID).toBe(200);
      expect(answer.json.content).toContain(report.description);
    }
  });

  it("has a text for the key of every card of the workspace, asked as its '?' asks", async () => {
    const titles = new Set<string>();
    for (const name of cardHelpKeys) {
      const answer = await help(
        JSON.stringify({ name, filterParams: { dateFrom: "2025-05", dateTo: "2025-06" } }),
      );
      expect(answer.status, name).toBe(200);
      expect(answer.json.content.length, name).toBeGreaterThan(40);
      titles.add(answer.json.title);
    }
    // One text each: none stands in for another card's.
    expect(titles.size).toBe(cardHelpKeys.length);
  });

  it("answers 404 with a clear message for an unknown key", async () => {
    const unknown = await help("no-such-card");
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toBe("No help text for the key 'no-such-card'.");
    const unknownJson = await help(JSON.stringify({ name: "nope", filterParams: { dateFrom: "2025-05" } }));
    expect(unknownJson.status).toBe(404);
  });

  it("answers 400 naming what is wrong with the key", async () => {
    const missing = await help(null);
    expect(missing.status).toBe(400);
    expect(missing.json.message).toContain("key");
    const badJson = await help("{name");
    expect(badJson.status).toBe(400);
    expect(badJson.json.errors).toEqual([{ field: "key", message: "not valid JSON" }]);
    const badPeriod = await help(JSON.stringify({ name: "mrr", filterParams: { dateFrom: "someday" } }));
    expect(badPeriod.status).toBe(400);
    expect(badPeriod.json.errors.map((e: { field: string }) => e.field)).toEqual([
      "key.filterParams.dateFrom",
    ]);
  });

  it("is for signed-in callers only", async () => {
    expect((await help("mrr", false)).status).toBe(401);
  });
});
