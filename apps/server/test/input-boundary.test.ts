import { expect, it } from "vitest";
import { Browser, describeWithServer } from "./harness";

/** What every call's input must be before a handler sees it, whatever the contract. */
describeWithServer("input at the door", (ctx) => {
  it("refuses text holding U+0000 with 400 naming the field, anywhere, signed in or not", async () => {
    const org = await ctx().createOrganisation("nul");
    const browser = new Browser(ctx().tenantUrl("nul"));
    // Public: the sign-in.
    const login = await browser.request("POST", "/api/login", {
      email: "a\u0000b@x.example.com",
      password: "x",
    });
    expect([login.status, login.json.errors]).toEqual([
      400,
      [{ field: "email", message: "must not contain the NUL character" }],
    ]);
    await browser.request("POST", "/api/login", { email: org.email, password: org.password });
    const xsrf = { "x-xsrf-token": browser.cookie("XSRF-TOKEN") ?? "" };
    const cases: [string, string, unknown, string][] = [
      ["POST", "/api/variance/UserManagement/UpdateUserProfile", { name: "a\u0000b" }, "name"],
      ["POST", "/api/variance/Role/Edit", { roleInfo: { name: "Role\u0000" } }, "roleInfo.name"],
      ["POST", "/api/variance/Lookup/GetClientList", { search: "\u0000" }, "search"],
      ["POST", "/api/variance/token", { name: "t", abilities: [{ "a\u0000": 1 }] }, "abilities.0"],
      ["GET", "/api/variance/VarianceOverview/OverviewKpi?client=a%00b", undefined, "client"],
    ];
    for (const [method, path, body, field] of cases) {
      const answer = await browser.request(method, path, body, xsrf);
      expect(answer.status, path).toBe(400);
      expect(answer.json.errors, path).toContainEqual({
        field,
        message: "must not contain the NUL character",
      });
    }
    // Nothing was written.
    const user = await ctx()
      .database.db.selectFrom("users")
      .select("name")
      .where("id", "=", org.userId)
      .executeTakeFirstOrThrow();
    expect(user.name).not.toContain("\u0000");
  });

  it("refuses a name on more than one line with 400 naming the field, and writes nothing", async () => {
    const org = await ctx().createOrganisation("lines");
    const browser = new Browser(ctx().tenantUrl("lines"));
    await browser.request("POST", "/api/login", { email: org.email, password: org.password });
    const xsrf = { "x-xsrf-token": browser.cookie("XSRF-TOKEN") ?? "" };
    const message = "must be one line of text, without line breaks or control characters";
    const cases: [string, unknown, string][] = [
      ["/api/variance/UserManagement/UpdateUserProfile", { name: "Ann\nBcc: all@example.com" }, "name"],
      ["/api/variance/Role/Edit", { roleInfo: { name: "Sales\r\nAdmin" } }, "roleInfo.name"],
      ["/api/variance/token", { name: "ci\u001bbot", abilities: [] }, "name"],
    ];
    for (const [path, body, field] of cases) {
      const answer = await browser.request("POST", path, body, xsrf);
      expect(answer.status, path).toBe(400);
      expect(answer.json.errors, path).toContainEqual({ field, message });
    }
    const user = await ctx()
      .database.db.selectFrom("users")
      .select("name")
      .where("id", "=", org.userId)
      .executeTakeFirstOrThrow();
    expect(user.name).not.toContain("Bcc");
    // An empty name (spaces only) or a long one is named as such, not in the parser's words.
    for (const [name, said] of [
      ["   ", "must not be empty"],
      ["x".repeat(101), "must be at most 100 characters"],
    ]) {
      const answer = await browser.request("POST", "/api/variance/token", { name, abilities: [] }, xsrf);
      expect([answer.status, answer.json.errors]).toEqual([400, [{ field: "name", message: said }]]);
    }
    // A name on one line, spaces and all, is taken.
    const fine = await browser.request(
      "POST",
      "/api/variance/UserManagement/UpdateUserProfile",
      { name: "Ann  Lee-Smith (Sales)" },
      xsrf,
    );
    expect(fine.status).toBe(200);
  });
});

describeWithServer("query keys in any case", (ctx) => {
  it("refuses a key given twice in different cases with 400 naming it, and takes one in any case", async () => {
    const org = await ctx().createOrganisation("twice");
    const browser = new Browser(ctx().tenantUrl("twice"));
    await browser.request("POST", "/api/login", { email: org.email, password: org.password });
    const base = "/api/variance/DashboardAlpha/GetVariance";
    const ambiguous = await browser.request(
      "GET",
      `${base}?dateFrom=2025-05&DateFrom=2024-01&dateTo=2025-06`,
    );
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.json.errors).toEqual([
      { field: "dateFrom", message: "is given more than once (dateFrom, DateFrom): send it once" },
    ]);
    const three = await browser.request(
      "GET",
      `${base}?DATETO=2025-06&dateFrom=2025-05&dateto=2025-06&DataType=Margin&datatype=Revenue`,
    );
    expect(three.status).toBe(400);
    expect((three.json.errors as { field: string }[]).map((e) => e.field)).toEqual(["dateTo", "dataType"]);
    const once = await browser.request("GET", `${base}?DATEFROM=2025-05&dateto=2025-06&DataType=Margin`);
    expect(once.status).toBe(200);
    expect(once.json).toMatchObject({ dataType: "Margin", periodFrom: "2025-05", periodTo: "2025-06" });
  });
});
