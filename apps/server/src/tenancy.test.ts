import { describe, expect, it } from "vitest";
import { tenantFromHost } from "./tenancy";

describe("tenantFromHost", () => {
  it.each([
    ["acme.localhost:8080", "acme"],
    ["ACME.varia.example.com", "acme"],
    ["app.varia.example.com", null],
    ["localhost:8080", null],
    ["127.0.0.1:8080", null],
    ["[::1]:8080", null],
    ["", null],
    [undefined, null],
    ["bad_label.example.com", null],
  ])("%s names %s", (host, tenant) => {
    expect(tenantFromHost(host)).toBe(tenant);
  });
});
