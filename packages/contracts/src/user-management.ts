import { z } from "zod";
import { abilities } from "./abilities";
import { emptySchema, nameSchema } from "./common";
import { defineContract } from "./define-contract";

export const userSummarySchema = z.object({
  userID: z.string(),
  name: z.string(),
  email: z.string(),
  userIsAdmin: z.boolean(),
  roleIDs: z.array(z.string()),
  multiFactorAuthenticationStatus: z.enum(["enabled", "disabled"]),
  disabled: z.boolean(),
});
export type UserSummary = z.infer<typeof userSummarySchema>;

/**
 * One user, and whether the caller may change them: `changeRefusal` is the reason the server would
 * refuse every change to this user (details, roles, password link, MFA reset, deletion), or null.
 */
export const userDetailSchema = userSummarySchema.extend({ changeRefusal: z.string().nullable() });
export type UserDetail = z.infer<typeof userDetailSchema>;

const userIdQuery = z.object({ userID: z.uuid() });

export const getUserList = defineContract({
  name: "UserManagement/GetUserList",
  method: "GET",
  root: "variance",
  path: "UserManagement/GetUserList",
  response: z.array(userSummarySchema),
  responseKind: "json",
  access: abilities.settingsUsersManage,
  summary: "The organisation's users.",
});

export const getUserDetail = defineContract({
  name: "UserManagement/GetUserDetail",
  method: "GET",
  root: "variance",
  path: "UserManagement/GetUserDetail",
  query: userIdQuery,
  response: userDetailSchema,
  responseKind: "json",
  access: abilities.settingsUsersManage,
  summary: "One user, with the reason the caller may not change them (changeRefusal), if any.",
});

export const userPasswordStatus = defineContract({
  name: "UserManagement/UserPasswordStatus",
  method: "GET",
  root: "variance",
  path: "UserManagement/UserPasswordStatus",
  query: userIdQuery,
  response: z.object({ hasPassword: z.boolean(), passwordLinkPending: z.boolean() }),
  responseKind: "json",
  access: abilities.settingsUsersManage,
  summary: "Whether the user has set a password, and whether a set-password link is pending.",
});

export const sendPasswordLink = defineContract({
  name: "UserManagement/SendPasswordLink",
  method: "POST",
  root: "variance",
  path: "UserManagement/SendPasswordLink",
  query: userIdQuery,
  response: emptySchema,
  responseKind: "empty",
  access: abilities.settingsUsersManage,
  policy: "never",
  summary: "Mail the user a set-password link (valid 72 h).",
});

const userFields = {
  name: nameSchema(200),
  email: z.email().max(320),
  userIsAdmin: z.boolean().default(false),
  roleIDs: z.array(z.uuid()).max(100).default([]),
};

export const createUser = defineContract({
  name: "UserManagement/CreateUser",
  method: "POST",
  root: "variance",
  path: "UserManagement/CreateUser",
  body: z.object(userFields),
  response: z.object({ userID: z.string() }),
  responseKind: "json",
  access: abilities.settingsUsersManage,
  policy: "never",
  summary: "Create a user and mail them a set-password link.",
});

export const updateUserDetail = defineContract({
  name: "UserManagement/UpdateDetail",
  method: "POST",
  root: "variance",
  path: "UserManagement/UpdateDetail",
  body: z.object({ userID: z.uuid(), ...userFields, disabled: z.boolean().default(false) }),
  response: emptySchema,
  responseKind: "empty",
  access: abilities.settingsUsersManage,
  policy: "never",
  summary: "Update a user's details, admin flag and roles; disabling ends their sessions.",
});

export const updateUserProfile = defineContract({
  name: "UserManagement/UpdateUserProfile",
  method: "POST",
  root: "variance",
  path: "UserManagement/UpdateUserProfile",
  body: z.object({ name: nameSchema(200) }),
  response: emptySchema,
  responseKind: "empty",
  access: "authenticated",
  policy: "never",
  summary: "Update one's own profile (name).",
});

export const deleteUser = defineContract({
  name: "UserManagement/DeleteUser",
  method: "POST",
  root: "variance",
  path: "UserManagement/DeleteUser",
  query: userIdQuery,
  response: emptySchema,
  responseKind: "empty",
  access: abilities.settingsUsersManage,
  policy: "never",
  summary: "Delete a user (not oneself); their sessions and tokens go with them.",
});
