import { z } from "zod";
import { abilities } from "./abilities";
import { emptySchema, pingSchema } from "./common";
import { defineContract } from "./define-contract";

export const loginMethods = [
  "Password",
  "ApiToken",
  "DemoCode",
  "SingleSignOnGoogle",
  "SingleSignOnIntuit",
  "SingleSignOnMicrosoft",
  "SingleSignOnXero",
] as const;
export const loginMethodSchema = z.enum(loginMethods);

export const requiredActions = ["AuthenticateMultiFactor"] as const;
export const requiredActionSchema = z.enum(requiredActions);
export type RequiredAction = z.infer<typeof requiredActionSchema>;

export const signUpSteps = ["Welcome", "Data", "Configure"] as const;
export const signUpStepSchema = z.enum(signUpSteps);

export const roleAbilitySchema = z.object({
  moduleSystemName: z.string(),
  featureSystemName: z.string(),
  abilitySystemName: z.string(),
});
export type RoleAbility = z.infer<typeof roleAbilitySchema>;

/** The user profile (docs/api.md#shapes). */
export const userProfileSchema = z.object({
  name: z.string(),
  email: z.string(),
  userGUID: z.string(),
  organisationGUID: z.string(),
  organisationName: z.string(),
  organisationHasMargins: z.boolean(),
  organisationIsForInternalUse: z.boolean(),
  organisationModule: z.number().int(),
  multiFactorAuthenticationStatus: z.string(),
  subscriptionCurrencyCode: z.string(),
  userIsAdmin: z.boolean(),
  userRoleAbilities: z.array(roleAbilitySchema),
  organisationSignUpStep: signUpStepSchema.nullable(),
  loginMethod: loginMethodSchema,
  demoMode: z.boolean(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

export const authorisedPingResponseSchema = pingSchema.extend({ profile: userProfileSchema });

export const authorisedPing = defineContract({
  name: "Account/AuthorisedPing",
  method: "GET",
  root: "api",
  path: "Account/AuthorisedPing",
  response: authorisedPingResponseSchema,
  responseKind: "json",
  access: "authenticated",
  summary: "Whether the caller is signed in, with the user profile.",
});

export const permissionPing = defineContract({
  name: "Account/PermissionPing",
  method: "GET",
  root: "api",
  path: "Account/PermissionPing",
  response: pingSchema.extend({
    userIsAdmin: z.boolean(),
    userRoleAbilities: z.array(roleAbilitySchema),
  }),
  responseKind: "json",
  access: "authenticated",
  summary: "The caller's abilities.",
});

export const termsOfServiceStatusSchema = pingSchema.extend({
  hasOnceAgreedToTermsOfServiceAgreement: z.boolean(),
  hasAcceptedLatestEffectiveVersion: z.boolean(),
});
export type TermsOfServiceStatus = z.infer<typeof termsOfServiceStatusSchema>;

export const termsOfServicePing = defineContract({
  name: "Account/TermsOfServicePing",
  method: "GET",
  root: "api",
  path: "Account/TermsOfServicePing",
  response: termsOfServiceStatusSchema,
  responseKind: "json",
  access: "authenticated",
  summary: "Whether the caller has accepted the latest terms of service.",
});

export const menuItemSchema = z.object({
  key: z.string(),
  title: z.string(),
  path: z.string(),
  moduleId: z.number().int(),
});
export type MenuItem = z.infer<typeof menuItemSchema>;

export const getAuthorisedMenu = defineContract({
  name: "Account/GetAuthorisedMenu",
  method: "GET",
  root: "api",
  path: "Account/GetAuthorisedMenu",
  response: z.object({ items: z.array(menuItemSchema) }),
  responseKind: "json",
  access: "authenticated",
  summary: "The menu entries the caller may open.",
});

export const loginRequestSchema = z.object({
  email: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(256),
  stayLoggedIn: z.boolean().default(false),
  recaptchaToken: z.string().max(4096).nullish(),
  actionsCompleted: z.array(requiredActionSchema).default([]),
  authenticateMultiFactor: z
    .object({
      totpCode: z
        .string()
        .regex(/^\d{6}$/)
        .optional(),
      skip: z.boolean().optional(),
    })
    .nullish(),
});
export type LoginRequest = z.input<typeof loginRequestSchema>;

export const loginResponseSchema = z.object({
  requiredActions: z.array(requiredActionSchema),
  authenticateMultiFactor: z
    .object({
      optional: z.boolean(),
      /** Present once, when the user enrols: the base32 secret for the authenticator app. */
      totpSecret: z.string().optional(),
      /** The same secret as the otpauth:// URI a QR code carries. */
      totpUri: z.string().optional(),
    })
    .optional(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const login = defineContract({
  name: "login",
  method: "POST",
  root: "api",
  path: "login",
  body: loginRequestSchema,
  response: loginResponseSchema,
  responseKind: "json",
  access: "public",
  policy: "never",
  summary: "Sign in with e-mail and password; may answer with required actions such as multi-factor.",
});

/** Ends the session: a POST, so that it carries the session's XSRF token (a link cannot sign anyone out). */
export const logout = defineContract({
  name: "logout",
  method: "POST",
  root: "api",
  path: "logout",
  response: emptySchema,
  responseKind: "empty",
  access: "public",
  actsOnSession: true,
  policy: "never",
  summary: "End the current session.",
});

export const acknowledgeTermsOfService = defineContract({
  name: "Account/AcknowledgeTermsOfService",
  method: "POST",
  root: "api",
  path: "Account/AcknowledgeTermsOfService",
  body: z.object({ accepted: z.literal(true) }),
  response: termsOfServiceStatusSchema,
  responseKind: "json",
  access: "authenticated",
  summary: "Record that the caller accepted the latest terms of service.",
});

export const globalLoginResponseSchema = z.object({
  organisations: z.array(z.object({ tenant: z.string(), organisationName: z.string(), url: z.string() })),
});

export const globalLogin = defineContract({
  name: "globalLogin",
  method: "POST",
  root: "api",
  path: "globalLogin",
  body: z.object({ email: z.string().trim().min(1).max(320), password: z.string().min(1).max(256) }),
  response: globalLoginResponseSchema,
  responseKind: "json",
  access: "public",
  policy: "never",
  summary:
    "At the app host (no tenant): checks e-mail and password, and answers the organisations to continue at.",
});

const totpCodeSchema = z.string().regex(/^\d{6}$/, "The code has 6 digits");

export const resetMultiFactorAuthentication = defineContract({
  name: "Auth/ResetMultiFactorAuthentication",
  method: "POST",
  root: "api",
  path: "Auth/ResetMultiFactorAuthentication",
  body: z.object({ password: z.string().min(1).max(256), totpCode: totpCodeSchema }),
  response: emptySchema,
  responseKind: "empty",
  access: "authenticated",
  policy: "never",
  summary: "Turn off one's own MFA (password and a current code); it is set up again at the next sign-in.",
});

export const adminResetMultiFactorAuthentication = defineContract({
  name: "Admin/ResetMultiFactorAuthentication",
  method: "POST",
  root: "api",
  path: "Admin/ResetMultiFactorAuthentication",
  body: z.object({ userID: z.uuid() }),
  response: emptySchema,
  responseKind: "empty",
  access: abilities.settingsUsersManage,
  policy: "never",
  summary: "Reset a user's MFA: they enrol again at their next sign-in; their sessions end.",
});

export const resetPasswordRequest = defineContract({
  name: "ResetPassword/ResetPasswordRequest",
  method: "POST",
  root: "api",
  path: "ResetPassword/ResetPasswordRequest",
  body: z.object({ email: z.string().trim().min(1).max(320) }),
  response: emptySchema,
  responseKind: "empty",
  access: "public",
  policy: "never",
  summary: "Mail a password-reset link (valid 1 h). The answer is the same whether or not the e-mail exists.",
});

/**
 * How long a new password may be (the server also refuses common passwords and the user's own
 * e-mail address; no composition rules). The password pages show these rules.
 */
export const passwordLength = { min: 12, max: 256 } as const;

const passwordTokenQuery = z.object({ tokenID: z.uuid(), secretToken: z.string().min(16).max(200) });

export const isTokenValid = defineContract({
  name: "ResetPassword/IsTokenValid",
  method: "GET",
  root: "api",
  path: "ResetPassword/IsTokenValid",
  query: passwordTokenQuery,
  // A usable link's account e-mail, for the password page's username field (docs/security.md, "Passwords").
  response: z.object({ isValid: z.boolean(), email: z.string().optional() }),
  responseKind: "json",
  access: "public",
  policy: "never",
  summary:
    "Whether a reset or set-password link is still usable; a usable one answers its account's e-mail address.",
});

export const resetPassword = defineContract({
  name: "ResetPassword/ResetPassword",
  method: "POST",
  root: "api",
  path: "ResetPassword/ResetPassword",
  body: passwordTokenQuery.extend({ password: z.string().min(1).max(1024) }),
  // The account's e-mail address, for the sign-in form that follows (docs/security.md, "Passwords").
  response: z.object({ email: z.string() }),
  responseKind: "json",
  access: "public",
  policy: "never",
  summary:
    "Set a new password with a reset or set-password link; ends the user's sessions. Answers the account's e-mail address.",
});

export const resetPasswordInApp = defineContract({
  name: "ResetPassword/ResetPasswordInApp",
  method: "POST",
  root: "api",
  path: "ResetPassword/ResetPasswordInApp",
  body: z.object({
    oldPassword: z.string().min(1).max(256),
    newPassword: z.string().min(1).max(1024),
    totpCode: totpCodeSchema.nullish(),
  }),
  response: emptySchema,
  responseKind: "empty",
  access: "authenticated",
  policy: "never",
  summary: "Change one's password (the current one, and a code when MFA is on); other sessions end.",
});

export const loginOrganisation = defineContract({
  name: "Account/LoginOrganisation",
  method: "GET",
  root: "api",
  path: "Account/LoginOrganisation",
  response: z.object({ organisationName: z.string().nullable() }),
  responseKind: "json",
  access: "public",
  policy: "lookup",
  summary:
    "For the login view ('You are logging in to {organisation}'): the display name of the organisation the host names, or null. Nothing else about it.",
});
