import {
  acknowledgeTermsOfService,
  actualPeriods,
  authorisedPing,
  getAuthorisedMenu,
  permissionPing,
  termsOfServicePing,
} from "@varia/contracts";
import { type LoadAppOutput, startupMachine } from "@varia/machines";
import { createActorContext } from "@xstate/react";
import { fromPromise } from "xstate";
import { api } from "../api";
import { navigateTo } from "../navigation";
import { preloadSignedInApp } from "./workspace-chunk";

const tourKey = "varia.tourSeen";

function seenTours(): string[] {
  try {
    return JSON.parse(localStorage.getItem(tourKey) ?? "[]") as string[];
  } catch {
    return [];
  }
}

/**
 * The months with actual data (ActualPeriods). docs/behaviour.md#messages: 401 is an empty list.
 * 403: the user may not view the dashboards; they are signed in all the same and see the
 * no-permission dashboard.
 */
export function fetchActualPeriods() {
  return api.call(actualPeriods).catch((error: { status?: number }) => {
    if (error.status === 401 || error.status === 403) return [];
    throw error;
  });
}

/** ActualPeriods, PermissionPing and GetAuthorisedMenu: what start-up loads once signed in. */
async function fetchAppData(): Promise<LoadAppOutput> {
  const [periods, permissions, menu] = await Promise.all([
    fetchActualPeriods(),
    api.call(permissionPing),
    api.call(getAuthorisedMenu),
  ]);
  return {
    actualPeriods: periods,
    userIsAdmin: permissions.userIsAdmin,
    abilities: permissions.userRoleAbilities,
    menu: menu.items,
  };
}

/**
 * When the browser holds a session's XSRF cookie, the app's data is asked for together with the
 * pings rather than after them (one round trip less before the first page); `loadApp` takes it.
 * Without a session the early calls are refused and forgotten.
 */
let earlyAppData: Promise<LoadAppOutput> | null = null;
const holdsSessionCookie = () =>
  typeof document !== "undefined" && /(^|;\s*)XSRF-TOKEN=/.test(document.cookie);

/** The start-up machine with the app's real actors and effects. */
export const appStartupMachine = startupMachine.provide({
  actors: {
    authorise: fromPromise(async () => {
      if (holdsSessionCookie()) {
        earlyAppData = fetchAppData();
        earlyAppData.catch(() => {});
        preloadSignedInApp();
      }
      const [ping, terms] = await Promise.allSettled([
        api.call(authorisedPing),
        api.call(termsOfServicePing),
      ]);
      if (ping.status === "fulfilled" && terms.status === "fulfilled") {
        // Signed in: the workspace's chunks load while the app's data does.
        preloadSignedInApp();
        return { profile: ping.value.profile, terms: terms.value };
      }
      earlyAppData = null;
      // An outage answers for both pings; otherwise the first refusal decides.
      const failures = [ping, terms].flatMap((r) =>
        r.status === "rejected" ? [r.reason as { status?: number }] : [],
      );
      throw failures.find((e) => !e.status || e.status === 500) ?? failures[0];
    }),
    loadApp: fromPromise(() => {
      const data = earlyAppData ?? fetchAppData();
      earlyAppData = null;
      return data;
    }),
    acknowledgeTerms: fromPromise(async () => {
      await api.call(acknowledgeTermsOfService, { body: { accepted: true } });
    }),
  },
  guards: {
    tourNotYetShown: (_, params) => !seenTours().includes(params.email),
  },
  actions: {
    rememberTour: (_, params) =>
      localStorage.setItem(tourKey, JSON.stringify([...seenTours(), params.email])),
    redirectToSignUp: (_, params) => navigateTo(params.path, true),
    closeChatWidget: () => {},
  },
});

export const StartupContext = createActorContext(appStartupMachine);
