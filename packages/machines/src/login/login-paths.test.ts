import { describe, expect, it } from "vitest";
import { getShortestPaths } from "xstate/graph";
import { type LoginEvent, loginMachine } from "./login-machine";
import { loginErrorMessage, loginMessages } from "./login-messages";
import { selectLoginMode } from "./selectors";

// The events a person and the server can produce; the server's answers arrive as the invoked
// requests' done and error events, the animations' ends as their delayed events.
const events = [
  { type: "login.submit", email: "ada@acme.example.com", password: "pw", stayLoggedIn: false },
  { type: "login.submitCode", code: "123456" },
  { type: "login.skipMultiFactor" },
  { type: "mode.default" },
  { type: "mode.forgotPassword" },
  { type: "mode.singleSignOn" },
  { type: "reset.submit", email: "ada@acme.example.com" },
  { type: "xstate.done.actor.loginRequest", output: { requiredActions: [] } },
  {
    type: "xstate.done.actor.loginRequest",
    output: { requiredActions: ["AuthenticateMultiFactor"], authenticateMultiFactor: { optional: true } },
  },
  {
    type: "xstate.done.actor.loginRequest",
    output: { requiredActions: ["AuthenticateMultiFactor"], authenticateMultiFactor: { optional: false } },
  },
  { type: "xstate.error.actor.loginRequest", error: { status: 401 } },
  { type: "xstate.error.actor.loginRequest", error: { status: 429 } },
  { type: "xstate.done.actor.resetRequest", output: undefined },
  { type: "xstate.error.actor.resetRequest", error: { status: 500 } },
  { type: "xstate.after.headShake.login.default.failed" },
  { type: "xstate.after.successAnimation.login.success" },
] as unknown as LoginEvent[];

const leaves = [
  "default.idle",
  "default.submitting",
  "default.failed",
  "authenticateMultiFactor.idle",
  "authenticateMultiFactor.submitting",
  "authenticateMultiFactor.skipping",
  "forgotPassword.idle",
  "forgotPassword.submitting",
  "forgotPassword.answered",
  "singleSignOn",
  "success",
  "done",
];

function leafOf(value: unknown): string {
  if (typeof value === "string") return value;
  const [key, inner] = Object.entries(value as Record<string, unknown>)[0]!;
  return `${key}.${leafOf(inner)}`;
}

describe("every path of the login machine (xstate/graph)", () => {
  for (const pathname of ["/", "/sso", "/forgot-password"]) {
    it(`from ${pathname}, ends where docs/behaviour.md says`, () => {
      const paths = getShortestPaths(loginMachine, { events, input: { pathname } });
      const reached = new Set(paths.map((p) => leafOf(p.state.value)));
      expect([...reached].every((leaf) => leaves.includes(leaf))).toBe(true);
      for (const path of paths) {
        const state = path.state as ReturnType<typeof loginMachine.transition>;
        const last = path.steps.at(-1)?.event as { type: string; error?: unknown } | undefined;
        const leaf = leafOf(state.value);
        // The mode shown always follows the state.
        const mode = selectLoginMode(state);
        if (leaf.startsWith("forgotPassword")) expect(mode).toBe("ForgotPassword");
        if (leaf.startsWith("authenticateMultiFactor")) expect(mode).toBe("AuthenticateMultiFactor");
        // A failed password step shows the documented message for its status, and shakes the head.
        if (leaf === "default.failed" && last?.type === "xstate.error.actor.loginRequest") {
          expect(state.context.error).toBe(loginErrorMessage(last.error, "password"));
          expect(state.context.character).toBe("headShake");
        }
        // A refused code keeps the multi-factor step and says so.
        if (leaf === "authenticateMultiFactor.idle" && last?.type === "xstate.error.actor.loginRequest") {
          expect([loginMessages.incorrectCode, loginMessages.locked]).toContain(state.context.error);
        }
        // Multi-factor is reached only by the server asking for it.
        if (leaf.startsWith("authenticateMultiFactor")) {
          expect(
            path.steps.some(
              (s) =>
                (s.event as { output?: { requiredActions?: string[] } }).output?.requiredActions?.[0] ===
                "AuthenticateMultiFactor",
            ),
          ).toBe(true);
        }
        // Signed in: the character stands; only a successful answer gets there.
        if (leaf === "success") {
          expect(state.context.character).toBe("standing");
          expect(last?.type).toBe("xstate.done.actor.loginRequest");
        }
        if (leaf === "forgotPassword.answered")
          expect(state.context.resetMessage).toBe(loginMessages.resetRequested);
      }
      // Every state of the screen is reachable from every starting address.
      expect([...reached].sort()).toEqual([...leaves].sort());
    });
  }
});
