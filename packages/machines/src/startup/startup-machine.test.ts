import type { TermsOfServiceStatus, UserProfile } from "@varia/contracts";
import { describe, expect, it, vi } from "vitest";
import { createActor, fromPromise, SimulatedClock, waitFor } from "xstate";
import {
  selectActualPeriods,
  selectHasAbility,
  selectOverlay,
  selectProfile,
  selectTermsFormOpen,
} from "./selectors";
import { type LoadAppOutput, overlayTimings, startupMachine } from "./startup-machine";

const profile = (overrides: Partial<UserProfile> = {}): UserProfile => ({
  name: "Ada",
  email: "ada@acme.example.com",
  userGUID: "u1",
  organisationGUID: "o1",
  organisationName: "Acme",
  organisationHasMargins: true,
  organisationIsForInternalUse: false,
  organisationModule: 2,
  multiFactorAuthenticationStatus: "disabled",
  subscriptionCurrencyCode: "USD",
  userIsAdmin: true,
  userRoleAbilities: [],
  organisationSignUpStep: null,
  loginMethod: "Password",
  demoMode: false,
  ...overrides,
});
const accepted: TermsOfServiceStatus = {
  success: true,
  hasOnceAgreedToTermsOfServiceAgreement: true,
  hasAcceptedLatestEffectiveVersion: true,
};
const loaded: LoadAppOutput = {
  actualPeriods: [{ yearNo: 2025, monthNo: 6 }],
  userIsAdmin: true,
  abilities: [],
  menu: [
    { key: "dashboard", title: "Dashboard", path: "/variance/dashboard/stockTypeOverview", moduleId: 2 },
  ],
};

interface Setup {
  demoMode?: boolean;
  authorise?: () => Promise<{ profile: UserProfile; terms: TermsOfServiceStatus }>;
  loadApp?: () => Promise<LoadAppOutput>;
  tourSeen?: Set<string>;
}

function start(options: Setup = {}) {
  const clock = new SimulatedClock();
  const calls = {
    redirect: vi.fn(),
    closeChat: vi.fn(),
    remember: vi.fn(),
    acknowledge: vi.fn(),
    authorise: 0,
  };
  const tourSeen = options.tourSeen ?? new Set<string>();
  const machine = startupMachine.provide({
    actors: {
      authorise: fromPromise(async () => {
        calls.authorise++;
        return (options.authorise ?? (async () => ({ profile: profile(), terms: accepted })))();
      }),
      loadApp: fromPromise(options.loadApp ?? (async () => loaded)),
      acknowledgeTerms: fromPromise(async () => {
        calls.acknowledge();
      }),
    },
    guards: { tourNotYetShown: (_, params) => !tourSeen.has(params.email) },
    actions: {
      redirectToSignUp: (_, params) => calls.redirect(params.path),
      closeChatWidget: () => calls.closeChat(),
      rememberTour: (_, params) => {
        tourSeen.add(params.email);
        calls.remember(params.email);
      },
    },
  });
  const actor = createActor(machine, { input: { demoMode: options.demoMode ?? false }, clock });
  actor.start();
  return { actor, clock, calls, tourSeen };
}

const settled = (actor: ReturnType<typeof start>["actor"]) =>
  waitFor(actor, (s) => s.context.authenticated !== null || s.context.serverUnavailable);

describe("startup machine (docs/behaviour.md#shell-and-start-up)", () => {
  it("starts with authentication unknown and the overlay up", () => {
    const { actor } = start({ authorise: () => new Promise(() => {}) });
    expect(actor.getSnapshot().context.authenticated).toBeNull();
    expect(selectOverlay(actor.getSnapshot())).toBe("visible");
  });

  it("signs in after periods, permissions and menu load, then fades the overlay no sooner than 2000 ms", async () => {
    const { actor, clock } = start();
    await settled(actor);
    const s = actor.getSnapshot();
    expect(s.context.authenticated).toBe(true);
    expect(s.matches({ session: "signedIn" })).toBe(true);
    expect(s.context.menu).toEqual(loaded.menu);
    expect(s.context.actualPeriods).toEqual(loaded.actualPeriods);
    expect(selectOverlay(s)).toBe("visible");
    clock.increment(overlayTimings.minimumMs - 1);
    expect(selectOverlay(actor.getSnapshot())).toBe("visible");
    clock.increment(1);
    expect(selectOverlay(actor.getSnapshot())).toBe("fading");
    clock.increment(overlayTimings.fadeMs - 1);
    expect(selectOverlay(actor.getSnapshot())).toBe("fading");
    clock.increment(1);
    expect(selectOverlay(actor.getSnapshot())).toBe("hidden");
  });

  it("knows the abilities the user holds (admins hold every one) and takes a new name", async () => {
    const dashboard = {
      moduleSystemName: "Variance",
      featureSystemName: "Dashboard",
      abilitySystemName: "View",
    };
    const reports = { ...dashboard, featureSystemName: "Reports" };
    const viewer = start({
      loadApp: async () => ({ ...loaded, userIsAdmin: false, abilities: [dashboard] }),
    });
    await settled(viewer.actor);
    expect(selectHasAbility(dashboard)(viewer.actor.getSnapshot())).toBe(true);
    expect(selectHasAbility(reports)(viewer.actor.getSnapshot())).toBe(false);
    const nobody = start({ loadApp: async () => ({ ...loaded, userIsAdmin: false, abilities: [] }) });
    await settled(nobody.actor);
    expect(selectHasAbility(dashboard)(nobody.actor.getSnapshot())).toBe(false);
    const admin = start();
    await settled(admin.actor);
    expect(selectHasAbility(reports)(admin.actor.getSnapshot())).toBe(true);
    admin.actor.send({ type: "profile.renamed", name: "Ada Lovelace" });
    expect(selectProfile(admin.actor.getSnapshot())?.name).toBe("Ada Lovelace");
    admin.actor.send({ type: "organisation.changed", organisationName: "Acme Europe", currencyCode: "EUR" });
    expect(selectProfile(admin.actor.getSnapshot())).toMatchObject({
      name: "Ada Lovelace",
      organisationName: "Acme Europe",
      subscriptionCurrencyCode: "EUR",
    });
    admin.actor.send({ type: "auth.signedOut" });
    expect(selectHasAbility(reports)(admin.actor.getSnapshot())).toBe(false);
  });

  it("takes the abilities and menu asked again while signed in, and only then", async () => {
    const dashboard = {
      moduleSystemName: "Variance",
      featureSystemName: "Dashboard",
      abilitySystemName: "View",
    };
    const reports = { ...dashboard, featureSystemName: "Reports" };
    const menu = [
      { key: "dashboard", title: "Dashboard", path: "/variance/dashboard/stockTypeOverview", moduleId: 2 },
    ];
    const { actor } = start({
      loadApp: async () => ({ ...loaded, userIsAdmin: false, abilities: [dashboard, reports] }),
    });
    await settled(actor);
    expect(selectHasAbility(reports)(actor.getSnapshot())).toBe(true);
    // An administrator narrowed the user's role: the next answer has lost Reports/View.
    actor.send({
      type: "permissions.refreshed",
      permissions: { userIsAdmin: false, abilities: [dashboard], menu },
    });
    expect(selectHasAbility(reports)(actor.getSnapshot())).toBe(false);
    expect(selectHasAbility(dashboard)(actor.getSnapshot())).toBe(true);
    expect(actor.getSnapshot().context.menu).toEqual(menu);
    // Signed out, a late answer grants nothing.
    actor.send({ type: "auth.signedOut" });
    actor.send({
      type: "permissions.refreshed",
      permissions: { userIsAdmin: true, abilities: [dashboard, reports], menu },
    });
    expect(selectHasAbility(reports)(actor.getSnapshot())).toBe(false);
    expect(actor.getSnapshot().context.menu).toEqual([]);
  });

  it("takes the months with data asked again while signed in (an import added one), and only then", async () => {
    const { actor } = start();
    await settled(actor);
    expect(selectActualPeriods(actor.getSnapshot())).toEqual([{ yearNo: 2025, monthNo: 6 }]);
    const after = [
      { yearNo: 2025, monthNo: 7 },
      { yearNo: 2025, monthNo: 6 },
    ];
    actor.send({ type: "periods.refreshed", actualPeriods: after });
    expect(selectActualPeriods(actor.getSnapshot())).toEqual(after);
    actor.send({ type: "auth.signedOut" });
    actor.send({ type: "periods.refreshed", actualPeriods: after });
    expect(selectActualPeriods(actor.getSnapshot())).toEqual([]);
  });

  it("keeps the overlay up past 2000 ms until start-up finishes", async () => {
    let finish!: (v: LoadAppOutput) => void;
    const { actor, clock } = start({ loadApp: () => new Promise((resolve) => (finish = resolve)) });
    await waitFor(actor, (s) => s.matches({ session: "loading" }));
    clock.increment(5000);
    expect(selectOverlay(actor.getSnapshot())).toBe("waiting");
    expect(actor.getSnapshot().context.authenticated).toBeNull();
    finish(loaded);
    await waitFor(actor, (s) => selectOverlay(s) === "fading");
    clock.increment(overlayTimings.fadeMs);
    expect(selectOverlay(actor.getSnapshot())).toBe("hidden");
  });

  it("in demo mode shows the tour once per demo e-mail, remembered", async () => {
    const first = start({ demoMode: true });
    await settled(first.actor);
    expect(first.actor.getSnapshot().context.tourOpen).toBe(true);
    expect(first.calls.remember).toHaveBeenCalledWith("ada@acme.example.com");
    first.actor.send({ type: "tour.close" });
    expect(first.actor.getSnapshot().context.tourOpen).toBe(false);
    const again = start({ demoMode: true, tourSeen: first.tourSeen });
    await settled(again.actor);
    expect(again.actor.getSnapshot().matches({ session: "signedIn" })).toBe(true);
    expect(again.actor.getSnapshot().context.tourOpen).toBe(false);
  });

  it("redirects a pending sign-up to its step", async () => {
    const { actor, calls } = start({
      authorise: async () => ({ profile: profile({ organisationSignUpStep: "Data" }), terms: accepted }),
    });
    await settled(actor);
    expect(actor.getSnapshot().matches({ session: "signingUp" })).toBe(true);
    expect(calls.redirect).toHaveBeenCalledWith("/sign-up/data");
  });

  it("opens the terms form when never agreed, and the tour after the first acknowledgement", async () => {
    const { actor, calls } = start({
      authorise: async () => ({
        profile: profile(),
        terms: {
          success: true,
          hasOnceAgreedToTermsOfServiceAgreement: false,
          hasAcceptedLatestEffectiveVersion: false,
        },
      }),
    });
    await settled(actor);
    expect(selectTermsFormOpen(actor.getSnapshot())).toBe(true);
    actor.send({ type: "terms.acknowledge" });
    await waitFor(actor, (s) => s.matches({ session: "signedIn" }));
    expect(calls.acknowledge).toHaveBeenCalledOnce();
    expect(actor.getSnapshot().context.tourOpen).toBe(true);
  });

  it("opens the terms form when the latest version is not accepted, without a tour after", async () => {
    const { actor } = start({
      authorise: async () => ({
        profile: profile(),
        terms: {
          success: true,
          hasOnceAgreedToTermsOfServiceAgreement: true,
          hasAcceptedLatestEffectiveVersion: false,
        },
      }),
    });
    await settled(actor);
    expect(selectTermsFormOpen(actor.getSnapshot())).toBe(true);
    actor.send({ type: "terms.acknowledge" });
    await waitFor(actor, (s) => s.matches({ session: "signedIn" }));
    expect(actor.getSnapshot().context.tourOpen).toBe(false);
  });

  it("marks the user unauthenticated and closes the chat widget when the ping is refused", async () => {
    const { actor, calls } = start({ authorise: () => Promise.reject({ status: 401 }) });
    await settled(actor);
    expect(actor.getSnapshot().context.authenticated).toBe(false);
    expect(actor.getSnapshot().context.serverUnavailable).toBe(false);
    expect(calls.closeChat).toHaveBeenCalledOnce();
  });

  it.each([
    ["no status", {}],
    ["status 0", { status: 0 }],
    ["status 500", { status: 500 }],
  ])("marks the server seemingly unavailable on an error with %s", async (_, error) => {
    const { actor } = start({ authorise: () => Promise.reject(error) });
    await settled(actor);
    expect(actor.getSnapshot().context.serverUnavailable).toBe(true);
    expect(actor.getSnapshot().matches({ session: "unavailable" })).toBe(true);
  });

  it("also judges the loading step's errors", async () => {
    const { actor } = start({ loadApp: () => Promise.reject({ status: 500 }) });
    await settled(actor);
    expect(actor.getSnapshot().context.serverUnavailable).toBe(true);
  });

  it("checks again after a sign-in, and forgets the user after a sign-out", async () => {
    let signedIn = false;
    const { actor, calls } = start({
      authorise: async () => {
        if (!signedIn) throw { status: 401 };
        return { profile: profile(), terms: accepted };
      },
    });
    await settled(actor);
    expect(actor.getSnapshot().context.authenticated).toBe(false);
    signedIn = true;
    actor.send({ type: "auth.signedIn" });
    await waitFor(actor, (s) => s.context.authenticated === true);
    expect(calls.authorise).toBe(2);
    actor.send({ type: "auth.signedOut" });
    expect(actor.getSnapshot().context).toMatchObject({ authenticated: false, profile: null, menu: [] });
  });

  it("retries after the server was unavailable", async () => {
    let up = false;
    const { actor } = start({
      authorise: async () => {
        if (!up) throw { status: 500 };
        return { profile: profile(), terms: accepted };
      },
    });
    await settled(actor);
    up = true;
    actor.send({ type: "auth.retry" });
    await waitFor(actor, (s) => s.context.authenticated === true);
    expect(actor.getSnapshot().context.serverUnavailable).toBe(false);
  });
});
