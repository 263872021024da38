import type { TermsOfServiceStatus, UserProfile } from "@varia/contracts";
import { describe, expect, it } from "vitest";
import { getShortestPaths } from "xstate/graph";
import { selectOverlay } from "./selectors";
import { type StartupEvent, startupMachine } from "./startup-machine";

const profile = (signUpStep: UserProfile["organisationSignUpStep"]) =>
  ({ email: "ada@acme.example.com", organisationSignUpStep: signUpStep }) as UserProfile;
const terms = (once: boolean, latest: boolean): TermsOfServiceStatus => ({
  success: true,
  hasOnceAgreedToTermsOfServiceAgreement: once,
  hasAcceptedLatestEffectiveVersion: latest,
});
const loaded = { actualPeriods: [], userIsAdmin: true, abilities: [], menu: [] };

// What the pings can answer, what the person can do, and the overlay's timers.
const events = [
  { type: "xstate.done.actor.authorise", output: { profile: profile(null), terms: terms(true, true) } },
  { type: "xstate.done.actor.authorise", output: { profile: profile("Data"), terms: terms(true, true) } },
  { type: "xstate.done.actor.authorise", output: { profile: profile(null), terms: terms(false, false) } },
  { type: "xstate.done.actor.authorise", output: { profile: profile(null), terms: terms(true, false) } },
  { type: "xstate.error.actor.authorise", error: { status: 401 } },
  { type: "xstate.error.actor.authorise", error: { status: 500 } },
  { type: "xstate.error.actor.authorise", error: {} },
  { type: "xstate.done.actor.loadApp", output: loaded },
  { type: "xstate.error.actor.loadApp", error: { status: 500 } },
  { type: "xstate.done.actor.acknowledgeTerms" },
  { type: "xstate.error.actor.acknowledgeTerms", error: { status: 500 } },
  { type: "terms.acknowledge" },
  { type: "tour.close" },
  { type: "auth.signedIn" },
  { type: "auth.signedOut" },
  { type: "auth.retry" },
  { type: "xstate.after.overlayMinimum.startup.overlay.visible" },
  { type: "xstate.after.overlayFade.startup.overlay.fading" },
] as unknown as StartupEvent[];

type Snapshot = ReturnType<typeof startupMachine.transition>;
const session = (s: Snapshot) => (s.value as { session: string }).session;

describe("every path of the start-up machine (xstate/graph)", () => {
  for (const demoMode of [false, true]) {
    it(`in ${demoMode ? "demo" : "normal"} mode, ends where docs/behaviour.md says`, () => {
      const paths = getShortestPaths(startupMachine, { events, input: { demoMode } });
      const sessions = new Set<string>();
      for (const path of paths) {
        const state = path.state as Snapshot;
        const s = session(state);
        sessions.add(s);
        const authorise = [...path.steps]
          .reverse()
          .map(
            (step) =>
              step.event as { type: string; output?: { profile: UserProfile; terms: TermsOfServiceStatus } },
          )
          .find((e) => e.type === "xstate.done.actor.authorise");
        // Authenticated is unknown until the first step ends, true only once loaded.
        if (s === "authorising" || s === "loading") {
          expect([null, false]).toContain(state.context.authenticated);
        }
        if (s === "signedIn" || s === "signingUp" || s === "terms")
          expect(state.context.authenticated).toBe(true);
        if (s === "signedOut") expect(state.context.authenticated).toBe(false);
        if (s === "unavailable") expect(state.context.serverUnavailable).toBe(true);
        // The four outcomes of docs/behaviour.md#shell-and-start-up.
        if (s === "signingUp") {
          expect(demoMode).toBe(false);
          expect(authorise?.output?.profile.organisationSignUpStep).toBe("Data");
        }
        if (s === "terms") {
          expect(demoMode).toBe(false);
          expect(authorise?.output?.terms.hasAcceptedLatestEffectiveVersion).toBe(false);
        }
        // The overlay fades only once start-up has decided, never before its minimum.
        if (selectOverlay(state) === "fading" || selectOverlay(state) === "hidden") {
          expect(state.context.authenticated !== null || state.context.serverUnavailable).toBe(true);
          expect(path.steps.some((step) => step.event.type.startsWith("xstate.after.overlayMinimum"))).toBe(
            true,
          );
        }
      }
      const expected = demoMode
        ? ["authorising", "loading", "signedIn", "signedOut", "unavailable"]
        : [
            "acknowledging",
            "authorising",
            "loading",
            "signedIn",
            "signedOut",
            "signingUp",
            "terms",
            "unavailable",
          ];
      expect([...sessions].sort()).toEqual(expected);
    });
  }
});
