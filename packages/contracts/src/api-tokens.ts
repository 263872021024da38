import { z } from "zod";
import { abilities } from "./abilities";
import { roleAbilitySchema } from "./account";
import { emptySchema, nameSchema } from "./common";
import { defineContract } from "./define-contract";

export const apiTokenSchema = z.object({
  tokenID: z.string(),
  name: z.string(),
  /** The first characters, to tell tokens apart; the token itself is shown once. */
  tokenPrefix: z.string(),
  /** The user the token acts as (the profile's `userGUID`). */
  userID: z.string(),
  userName: z.string(),
  abilities: z.array(roleAbilitySchema),
  /**
   * What the token may do now: `abilities` narrowed to what its user holds now (a role taken away,
   * an admin made a plain user), none while the user is disabled.
   */
  abilitiesInForce: z.array(roleAbilitySchema),
  /** The user is disabled: the token is refused until they are enabled again. */
  userDisabled: z.boolean(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const listApiTokens = defineContract({
  name: "token (GET)",
  method: "GET",
  root: "variance",
  path: "token",
  response: z.array(apiTokenSchema),
  responseKind: "json",
  access: abilities.settingsTokensManage,
  summary: "The live API tokens: one's own, or every one of the organisation for admins.",
});

export const createApiToken = defineContract({
  name: "token (POST)",
  method: "POST",
  root: "variance",
  path: "token",
  body: z.object({
    name: nameSchema(100),
    /** The scope; default every ability the caller holds. Never more than the caller holds. */
    abilities: z.array(roleAbilitySchema).max(100).optional(),
  }),
  response: apiTokenSchema.extend({ token: z.string() }),
  responseKind: "json",
  access: abilities.settingsTokensManage,
  policy: "never",
  summary: "Create a named API token; the token is in this answer only, and stored hashed.",
});

export const revokeApiToken = defineContract({
  name: "token (DELETE)",
  method: "DELETE",
  root: "variance",
  path: "token",
  query: z.object({ tokenID: z.uuid() }),
  response: emptySchema,
  responseKind: "empty",
  access: abilities.settingsTokensManage,
  policy: "never",
  summary: "Revoke an API token; it is refused from then on.",
});
