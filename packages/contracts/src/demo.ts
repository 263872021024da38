import { z } from "zod";
import { emptySchema } from "./common";
import { defineContract } from "./define-contract";

/** The server's reply to a blocked domain; the form shows 'Please enter a valid business email'. */
export const notBusinessEmailMessage = "Email is not a valid business email";

/**
 * A demo visitor's name: plain text, as a person's name is written (letters, spaces, apostrophes,
 * hyphens, dots), at most 80 characters. It becomes the visitor's user name; no mail carries it.
 */
export const demoVisitorNameSchema = z
  .string()
  .trim()
  .min(1, "Please enter a name")
  .max(80, "The name has at most 80 characters")
  .regex(
    /^\p{L}[\p{L}\p{M} '’.-]*$/u,
    "The name may hold letters, spaces, apostrophes, hyphens and dots only",
  );

export const demoSignup = defineContract({
  name: "Demo/Signup",
  method: "POST",
  root: "api",
  path: "Demo/Signup",
  body: z.object({
    name: demoVisitorNameSchema,
    email: z.string().trim().min(3).max(320),
    phoneDetected: z.boolean().default(false),
    recaptchaToken: z.string().max(4096).nullish(),
  }),
  response: emptySchema,
  responseKind: "empty",
  access: "public",
  policy: "never",
  summary:
    "Request a demo (demo mode only): a 6-digit login code (10 min, 5 tries) is mailed to the business address.",
});

export const demoVerify = defineContract({
  name: "Demo/Verify",
  method: "POST",
  root: "api",
  path: "Demo/Verify",
  body: z.object({
    email: z.string().trim().min(3).max(320),
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, "The code has 6 digits"),
  }),
  response: emptySchema,
  responseKind: "empty",
  access: "public",
  policy: "never",
  summary:
    "Sign in with the mailed code, to an organisation of one's own holding the generated demo business (demo mode only).",
});

export const demoContactUs = defineContract({
  name: "Demo/ContactUs",
  method: "POST",
  root: "api",
  path: "Demo/ContactUs",
  body: z.object({ userMessage: z.string().trim().min(1).max(5000) }),
  response: emptySchema,
  responseKind: "empty",
  access: "authenticated",
  policy: "never",
  summary: "Send a message to the team; stored and mailed to the configured address.",
});
