import { serverMessageOf, statusOf } from "../request-error";

/** The messages of docs/behaviour.md#messages, verbatim. */
export const loginMessages = {
  incorrectCode: "Incorrect code, please try again",
  invalidCredentials: "Unable to login. Either email or password is incorrect",
  badRequest: "Login attempt failed, please try again",
  locked:
    "Your account has reached the maximum number of failed login attempts and has been temporarily locked. Please try again later",
  other: "An error occurred while logging in, please try again",
  noPendingLogin: "Error logging in, please refresh and try again.",
  resetFailed: "An error occurred while requesting password reset, please try again",
  resetRequested:
    "If you have entered a valid email address, you'll soon receive an email with a link to reset your password",
} as const;

/** The message of a failed login by status and step (docs/behaviour.md#messages). */
export function loginErrorMessage(error: unknown, step: "password" | "multiFactor"): string {
  switch (statusOf(error)) {
    case 401:
      return step === "multiFactor" ? loginMessages.incorrectCode : loginMessages.invalidCredentials;
    case 400:
      return loginMessages.badRequest;
    case 429:
      return serverMessageOf(error) ?? loginMessages.locked;
    default:
      return loginMessages.other;
  }
}
