import { describe, expect, it } from "vitest";
import { roleFormErrors } from "../roles/role-form";
import { userFormErrors } from "./user-form";

describe("the checks before a user or role is sent", () => {
  it("names each missing or malformed field of a user", () => {
    expect(userFormErrors({ name: " ", email: "" })).toEqual({
      name: ["Enter the user's name."],
      email: ["Enter the user's e-mail address."],
    });
    expect(userFormErrors({ name: "Grace", email: "grace@" })).toEqual({
      email: ["Enter an e-mail address like name@example.com."],
    });
    expect(userFormErrors({ name: "Grace", email: " grace@acme.example.com " })).toEqual({});
  });

  it("asks a role for its name", () => {
    expect(roleFormErrors({ name: "" })).toEqual({ name: ["Enter the role's name."] });
    expect(roleFormErrors({ name: "Analyst" })).toEqual({});
  });
});
