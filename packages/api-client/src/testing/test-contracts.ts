import { defineContract } from "@varia/contracts";
import { z } from "zod";

// Contracts of the client's own tests, one of each kind the client treats differently.

export const items = defineContract({
  name: "Test/Items",
  method: "GET",
  root: "api",
  path: "Test/Items",
  query: z.object({
    dateFrom: z.string(),
    clientID: z.string().optional(),
    months: z.array(z.string()).optional(),
    adhoc: z.boolean().optional(),
  }),
  response: z.array(z.object({ id: z.number() })),
  responseKind: "json",
  access: "public",
});

export const lookup = defineContract({
  name: "Test/Lookup",
  method: "GET",
  root: "api",
  path: "Test/Lookup",
  query: z.object({ q: z.string().optional() }),
  response: z.object({ n: z.number() }),
  responseKind: "json",
  access: "public",
  policy: "lookup",
});

export const periods = defineContract({
  name: "Test/Periods",
  method: "GET",
  root: "variance",
  path: "Test/Periods",
  response: z.array(z.object({ id: z.number() })),
  responseKind: "json",
  access: "public",
  cacheTtlMs: 60_000,
});

export const noRetry = defineContract({
  name: "Test/NoRetry",
  method: "GET",
  root: "api",
  path: "Test/NoRetry",
  response: z.void(),
  responseKind: "empty",
  access: "public",
  policy: "never",
});

export const save = defineContract({
  name: "Test/Save",
  method: "POST",
  root: "api",
  path: "Test/Save",
  body: z.object({ name: z.string() }),
  response: z.void(),
  responseKind: "empty",
  access: "public",
});

export const replace = defineContract({
  name: "Test/Replace",
  method: "PUT",
  root: "api",
  path: "Test/Replace",
  body: z.object({ name: z.string() }),
  response: z.object({ ok: z.boolean() }),
  responseKind: "json",
  access: "public",
});

export const remove = defineContract({
  name: "Test/Remove",
  method: "DELETE",
  root: "api",
  path: "Test/Remove",
  query: z.object({ id: z.string() }),
  response: z.void(),
  responseKind: "empty",
  access: "public",
});

export const sso = defineContract({
  name: "Auth/SingleSignOn",
  method: "GET",
  root: "api",
  path: "Auth/SingleSignOn/{provider}",
  params: z.object({ provider: z.enum(["Google", "Xero"]) }),
  response: z.void(),
  responseKind: "empty",
  access: "public",
});

export const helpText = defineContract({
  name: "Test/HelpText",
  method: "GET",
  root: "api",
  path: "helpText",
  query: z.object({ key: z.string() }),
  response: z.string(),
  responseKind: "text",
  access: "public",
});

export const download = defineContract({
  name: "Test/Download",
  method: "GET",
  root: "variance",
  path: "Test/Download",
  response: z.string(),
  responseKind: "file",
  access: "public",
});

export const upload = defineContract({
  name: "Test/Upload",
  method: "POST",
  root: "api",
  path: "Test/Upload",
  query: z.object({ source: z.string().optional() }),
  bodyKind: "multipart",
  response: z.object({ jobGuid: z.string() }),
  responseKind: "json",
  access: "public",
  policy: "never",
});

export const change = defineContract({
  name: "Test/Change",
  method: "POST",
  root: "api",
  path: "Test/Change",
  body: z.object({ name: z.string() }),
  response: z.void(),
  responseKind: "empty",
  access: "public",
  policy: "never",
  changesData: true,
});
