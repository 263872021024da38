import { ApiError } from "@varia/api-client";
import { describe, expect, it } from "vitest";
import { fieldMessages, formErrorsOf } from "./form-errors";

const answer = (status: number, result: unknown) =>
  new ApiError("Bad Request", status, JSON.stringify(result), {}, result);

describe("formErrorsOf", () => {
  it("gathers the server's messages by field, and asks for the marked fields to be corrected", () => {
    const errors = formErrorsOf(
      answer(400, {
        message: "Invalid body: clientCodes.1, itemCategories.0.code",
        errors: [
          { field: "clientCodes.1", message: "no client 'C9'" },
          { field: "itemCategories.0.code", message: "'A' is listed twice" },
          { field: "itemCategories.0.code", message: "too long" },
        ],
      }),
      "fallback",
    );
    expect(errors.message).toBe("Please correct the fields marked in red.");
    expect(fieldMessages(errors, "clientCodes.1")).toEqual(["no client 'C9'"]);
    expect(fieldMessages(errors, "clientCodes.0")).toEqual([]);
    expect(fieldMessages(errors, "itemCategories")).toEqual(["'A' is listed twice", "too long"]);
    // A field's name is not a prefix of another's.
    expect(fieldMessages(errors, "itemCategories.0.co")).toEqual([]);
  });

  it("shows the server's message when no field is named, and the fallback without an answer", () => {
    expect(formErrorsOf(answer(409, { message: "An exclusion list with this name exists" }), "x")).toEqual({
      fields: {},
      message: "An exclusion list with this name exists",
    });
    expect(formErrorsOf(new Error("offline"), "Please try again.")).toEqual({
      fields: {},
      message: "Please try again.",
    });
  });
});
