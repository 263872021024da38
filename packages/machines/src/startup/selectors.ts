import type { AbilityRef } from "@varia/contracts";
import type { SnapshotFrom } from "xstate";
import type { startupMachine } from "./startup-machine";

type Snapshot = SnapshotFrom<typeof startupMachine>;

export const selectAuthenticated = (s: Snapshot) => s.context.authenticated;
export const selectServerUnavailable = (s: Snapshot) => s.context.serverUnavailable;
export const selectProfile = (s: Snapshot) => s.context.profile;
export const selectMenu = (s: Snapshot) => s.context.menu;
export const selectActualPeriods = (s: Snapshot) => s.context.actualPeriods;
/** No month holds actual data yet: nothing has been imported. */
export const selectHasNoData = (s: Snapshot) => s.context.actualPeriods.length === 0;
/** The user's roles open the dashboards (their menu has its entry). */
export const selectOpensDashboards = (s: Snapshot) => s.context.menu.some((m) => m.key === "dashboard");
export const selectTourOpen = (s: Snapshot) => s.context.tourOpen;
export const selectTermsFormOpen = (s: Snapshot) =>
  s.matches({ session: "terms" }) || s.matches({ session: "acknowledging" });
export const selectTermsMustBeAccepted = (s: Snapshot) =>
  !s.context.terms?.hasOnceAgreedToTermsOfServiceAgreement;
/** 'visible' | 'waiting' | 'fading' | 'hidden': the overlay covers the app until 'hidden'. */
export const selectOverlay = (s: Snapshot) => {
  const overlay = (s.value as { overlay: string }).overlay;
  return overlay as "visible" | "waiting" | "fading" | "hidden";
};

/** Whether the signed-in user holds an ability (admins hold every one). */
export const selectHasAbility = (ability: AbilityRef) => (s: Snapshot) =>
  s.context.userIsAdmin ||
  s.context.abilities.some(
    (a) =>
      a.moduleSystemName === ability.moduleSystemName &&
      a.featureSystemName === ability.featureSystemName &&
      a.abilitySystemName === ability.abilitySystemName,
  );
