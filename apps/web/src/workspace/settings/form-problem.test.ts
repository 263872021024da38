import { ApiError } from "@varia/api-client";
import { describe, expect, it } from "vitest";
import { formProblem, hasFieldErrors } from "./form-problem";

const answer = (status: number, body: unknown) =>
  new ApiError(
    status === 400 ? "Bad Request" : "An unexpected server error occurred.",
    status,
    JSON.stringify(body),
    {},
    body,
  );

describe("formProblem", () => {
  const labels = { name: "Name", email: "E-mail", roleIDs: "Roles" };

  it("puts the server's field errors under the form's fields and names them in the summary", () => {
    const problem = formProblem(
      answer(400, {
        message: "Invalid body: email, name",
        errors: [
          { field: "email", message: "Invalid email address" },
          { field: "name", message: "Too small" },
          { field: "email", message: "Too long" },
        ],
      }),
      labels,
    );
    expect(problem.fields).toEqual({ email: ["Invalid email address", "Too long"], name: ["Too small"] });
    expect(problem.message).toBe("Please check E-mail, Name.");
  });

  it("maps a nested field through its alias", () => {
    const problem = formProblem(
      answer(409, {
        message: "A role with this name exists",
        errors: [{ field: "roleInfo.name", message: "A role with this name exists" }],
      }),
      { name: "Name" },
      { "roleInfo.name": "name" },
    );
    expect(problem.fields).toEqual({ name: ["A role with this name exists"] });
    expect(problem.message).toBe("Please check Name.");
  });

  it("keeps the server's words for a refusal, not the client's generic text", () => {
    const problem = formProblem(
      answer(403, {
        message: "You cannot give a role with an ability you do not hold",
        errors: [{ field: "roleIDs", message: "Not held: Variance/Users/Manage" }],
      }),
      labels,
    );
    expect(problem.message).toBe("You cannot give a role with an ability you do not hold");
    expect(problem.fields.roleIDs).toEqual(["Not held: Variance/Users/Manage"]);
  });

  it("falls back to the client's message when the answer had none", () => {
    const problem = formProblem(new ApiError("The server could not be reached.", 0, "", {}), labels);
    expect(problem).toEqual({ message: "The server could not be reached.", fields: {} });
  });
});

describe("hasFieldErrors", () => {
  it("is true only when some field has a message", () => {
    expect(hasFieldErrors({})).toBe(false);
    expect(hasFieldErrors({ name: [] })).toBe(false);
    expect(hasFieldErrors({ name: ["Enter the user's name."] })).toBe(true);
  });
});
