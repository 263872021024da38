import { ApiError } from "@varia/api-client";
import { describe, expect, it } from "vitest";
import { fieldMessages, formErrorsOf, withoutField } from "./form-errors";

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

describe("withoutField", () => {
  const errors = {
    fields: { name: ["Please enter a name for the list"], "clientCodes.1": ["no client 'C9'"] },
    message: "Please correct the fields marked in red.",
  };

  it("takes away an edited field's messages and keeps the others and the form's message", () => {
    expect(withoutField(errors, "name")).toEqual({
      fields: { "clientCodes.1": ["no client 'C9'"] },
      message: "Please correct the fields marked in red.",
    });
    // A field's parts go with it.
    expect(fieldMessages(withoutField(errors, "clientCodes"), "clientCodes")).toEqual([]);
  });

  it("takes the form's message away with the last marked field, and keeps one that named no field", () => {
    expect(withoutField(withoutField(errors, "name"), "clientCodes")).toEqual({ fields: {}, message: null });
    const refusal = { fields: {}, message: "The list could not be saved. Please try again." };
    expect(withoutField(refusal, "name")).toEqual(refusal);
  });
});
