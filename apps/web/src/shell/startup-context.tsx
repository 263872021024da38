import {
  acknowledgeTermsOfService,
  actualPeriods,
  authorisedPing,
  getAuthorisedMenu,
  permissionPing,
  termsOfServicePing,
} from "@varia/contracts";
import { startupMachine } from "@varia/machines";
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

/** The start-up machine with the app's real actors and effects. */
export const appStartupMachine = startupMachine.provide({
  actors: {
    authorise: fromPromise(async () => {
      const [ping, terms] = await Promise.allSettled([
        api.call(authorisedPing),
        api.call(termsOfServicePing),
      ]);
      if (ping.status === "fulfilled" && terms.status === "fulfilled") {
        // Signed in: the workspace's chunks load while the app's data does.
        preloadSignedInApp();
        return { profile: ping.value.profile, terms: terms.value };
      }
      // An outage answers for both pings; otherwise the first refusal decides.
      const failures = [ping, terms].flatMap((r) =>
        r.status === "rejected" ? [r.reason as { status?: number }] : [],
      );
      throw failures.find((e) => !e.status || e.status === 500) ?? failures[0];
    }),
    loadApp: fromPromise(async () => {
      const [periods, permissions, menu] = await Promise.all([
        api.call(actualPeriods).catch((error: { status?: number }) => {
          // Spec 8: 401 on actual periods is an empty list. 403: the user may not view the
          // dashboards; they are signed in all the same and see the no-permission dashboard.
          if (error.status === 401 || error.status === 403) return [];
          throw error;
        }),
        api.call(permissionPing),
        api.call(getAuthorisedMenu),
      ]);
      return {
        actualPeriods: periods,
        userIsAdmin: permissions.userIsAdmin,
        abilities: permissions.userRoleAbilities,
        menu: menu.items,
      };
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
