import { z } from "zod";
import { emptySchema } from "./common";
import { defineContract } from "./define-contract";

/** Single-sign-on providers (docs/api.md#shapes). */
export const singleSignOnProviders = ["Google", "Intuit", "Microsoft", "Xero"] as const;
export const singleSignOnProviderSchema = z.enum(singleSignOnProviders, {
  error: "The parameter 'provider' must be defined.",
});
export type SingleSignOnProvider = z.infer<typeof singleSignOnProviderSchema>;

/** Sign-up also takes the accounting package (docs/api.md#shapes): Quickbooks signs up through Intuit. */
export const singleSignUpProviderSchema = z.enum([...singleSignOnProviders, "Quickbooks"], {
  error: "The parameter 'provider' must be defined.",
});

/** What the provider sends back to the redirect URI; openid-client checks it all. */
const callbackQuery = z
  .object({
    code: z.string().max(4096).optional(),
    state: z.string().max(512).optional(),
    iss: z.string().max(2048).optional(),
    error: z.string().max(200).optional(),
    error_description: z.string().max(2000).optional(),
  })
  .loose();

export const singleSignOn = defineContract({
  name: "Auth/SingleSignOn",
  method: "GET",
  root: "api",
  path: "Auth/SingleSignOn/{provider}",
  params: z.object({ provider: singleSignOnProviderSchema }),
  response: emptySchema,
  responseKind: "empty",
  access: "public",
  policy: "never",
  summary: "Browser navigation: redirects to the provider (PKCE S256, state, nonce).",
});

export const singleSignOnCallback = defineContract({
  name: "Auth/SingleSignOnCallback",
  method: "GET",
  root: "api",
  path: "Auth/SingleSignOnCallback/{provider}",
  params: z.object({ provider: singleSignOnProviderSchema }),
  query: callbackQuery,
  response: emptySchema,
  responseKind: "empty",
  access: "public",
  policy: "never",
  summary: "The provider's redirect: signs in the user linked to (issuer, sub), then redirects to /.",
});

export const singleSignUp = defineContract({
  name: "Auth/SingleSignUp",
  method: "GET",
  root: "api",
  path: "Auth/SingleSignUp/{provider}",
  params: z.object({ provider: singleSignUpProviderSchema }),
  response: emptySchema,
  responseKind: "empty",
  access: "public",
  policy: "never",
  summary: "Browser navigation: sign up a new organisation through the provider.",
});

export const singleSignUpCallback = defineContract({
  name: "Auth/SingleSignUpCallback",
  method: "GET",
  root: "api",
  path: "Auth/SingleSignUpCallback/{provider}",
  params: z.object({ provider: singleSignOnProviderSchema }),
  query: callbackQuery,
  response: emptySchema,
  responseKind: "empty",
  access: "public",
  policy: "never",
  summary: "The provider's redirect after sign-up: creates the organisation and its admin, then /sign-up.",
});
