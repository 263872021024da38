import {
  authorisedPing,
  exportRawData,
  importGetJobStatus,
  importUpload,
  type UserProfile,
} from "@varia/contracts";
import type { Period } from "@varia/period";
import { describe, expectTypeOf, it } from "vitest";
import { createApiClient } from "./create-api-client";
import type { FileResponse } from "./read-response";

// Type tests (vitest convention `.test-d.ts`): checked by tsc in the typecheck, never run, so no
// call below reaches a server. The client's types follow the contracts.
describe("the client's types", () => {
  const api = createApiClient();

  it("answers the contract's response type, and a FileResponse for files", () => {
    expectTypeOf(api.call(authorisedPing)).resolves.toHaveProperty("profile").toEqualTypeOf<UserProfile>();
    expectTypeOf(api.call(exportRawData)).resolves.toEqualTypeOf<FileResponse>();
    expectTypeOf(api.download(exportRawData)).resolves.toEqualTypeOf<FileResponse>();
    expectTypeOf(api.upload(importUpload, { file: new Uint8Array(), fileName: "a.csv" }))
      .resolves.toHaveProperty("jobGuid")
      .toEqualTypeOf<string>();
  });

  it("takes the contract's query, with periods and dates where it carries text", () => {
    expectTypeOf(api.call<typeof exportRawData>)
      .parameter(1)
      .exclude<undefined>()
      .toHaveProperty("query")
      .exclude<undefined>()
      .toHaveProperty("dateFrom")
      .toEqualTypeOf<string | Period | Date | undefined>();
    expectTypeOf(api.call<typeof importGetJobStatus>)
      .parameter(1)
      .toHaveProperty("query")
      .toEqualTypeOf<{ JobGuid: string | Period | Date }>();
  });

  it("asks for the input when something in it is required, and refuses parts the contract has not", () => {
    // @ts-expect-error JobGuid is required, so the input is
    void api.call(importGetJobStatus);
    // @ts-expect-error AuthorisedPing takes no body
    void api.call(authorisedPing, { body: { x: 1 } });
    // @ts-expect-error nor query
    void api.call(authorisedPing, { query: { x: 1 } });
    // @ts-expect-error download takes file contracts only
    void api.download(authorisedPing);
  });
});
