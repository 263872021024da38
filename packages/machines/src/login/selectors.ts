import type { SnapshotFrom } from "xstate";
import type { LoginMode, loginMachine } from "./login-machine";

type Snapshot = SnapshotFrom<typeof loginMachine>;

export const selectLoginMode = (s: Snapshot): LoginMode => {
  if (s.matches("forgotPassword")) return "ForgotPassword";
  if (s.matches("singleSignOn")) return "SingleSignOn";
  if (s.matches("authenticateMultiFactor")) return "AuthenticateMultiFactor";
  return "default";
};
export const selectLoginError = (s: Snapshot) => s.context.error;
export const selectCharacter = (s: Snapshot) => s.context.character;
export const selectMultiFactor = (s: Snapshot) => s.context.multiFactor;
export const selectResetMessage = (s: Snapshot) => s.context.resetMessage;
export const selectLoginBusy = (s: Snapshot) =>
  s.matches({ default: "submitting" }) ||
  s.matches({ authenticateMultiFactor: "submitting" }) ||
  s.matches({ authenticateMultiFactor: "skipping" }) ||
  s.matches("success") ||
  s.matches("done");
export const selectResetLocked = (s: Snapshot) =>
  s.matches({ forgotPassword: "submitting" }) || s.matches({ forgotPassword: "answered" });
export const selectSignedIn = (s: Snapshot) => s.matches("success") || s.matches("done");
