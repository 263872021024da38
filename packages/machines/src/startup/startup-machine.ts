import type { MenuItem, PeriodDto, RoleAbility, TermsOfServiceStatus, UserProfile } from "@varia/contracts";
import { assign, enqueueActions, fromPromise, setup } from "xstate";
import { notProvided, seemsUnavailable } from "../request-error";

/** The overlay shows at least 2000 ms, then fades over 500 ms (docs/behaviour.md#shell-and-start-up). */
export const overlayTimings = { minimumMs: 2000, fadeMs: 500 } as const;

export interface StartupInput {
  /** Demo mode, set by the environment (docs/behaviour.md#tenants-and-modes). */
  demoMode: boolean;
}

export interface AuthoriseOutput {
  profile: UserProfile;
  terms: TermsOfServiceStatus;
}

export interface LoadAppOutput {
  actualPeriods: PeriodDto[];
  userIsAdmin: boolean;
  abilities: RoleAbility[];
  menu: MenuItem[];
}

export interface StartupContext {
  demoMode: boolean;
  /** null until the initial authentication step finishes (docs/behaviour.md#shell-and-start-up). */
  authenticated: boolean | null;
  serverUnavailable: boolean;
  profile: UserProfile | null;
  terms: TermsOfServiceStatus | null;
  actualPeriods: PeriodDto[];
  userIsAdmin: boolean;
  abilities: RoleAbility[];
  menu: MenuItem[];
  tourOpen: boolean;
}

export type StartupEvent =
  | { type: "auth.signedIn" }
  | { type: "auth.signedOut" }
  | { type: "auth.retry" }
  | { type: "terms.acknowledge" }
  | { type: "tour.close" }
  /** The user changed their own name (profile modal): the profile shows it without a reload. */
  | { type: "profile.renamed"; name: string }
  /**
   * The signed-in user's abilities and menu as the server answers them now (asked again on every
   * page: an administrator may have changed their roles since start-up).
   */
  | { type: "permissions.refreshed"; permissions: Omit<LoadAppOutput, "actualPeriods"> }
  /**
   * The months with actual data as the server answers them now: an import or a restore (here or
   * elsewhere) may have added or taken away months since start-up.
   */
  | { type: "periods.refreshed"; actualPeriods: PeriodDto[] }
  /** The organisation's settings were saved: its name and currency show without a reload. */
  | { type: "organisation.changed"; organisationName: string; currencyCode: string };

const signedOut = {
  authenticated: false,
  profile: null,
  terms: null,
  actualPeriods: [],
  userIsAdmin: false,
  abilities: [],
  menu: [],
};

/**
 * Start-up and authentication (docs/behaviour.md#shell-and-start-up). Two regions: the session
 * (ping, load, one of four outcomes) and the page-wide overlay (at least 2000 ms, then a 500 ms fade
 * once start-up is done).
 *
 * The app provides the actors `authorise` (AuthorisedPing + TermsOfServicePing), `loadApp`
 * (ActualPeriods, PermissionPing, GetAuthorisedMenu) and `acknowledgeTerms`; the guard
 * `tourNotYetShown` and the actions `rememberTour`, `redirectToSignUp` and `closeChatWidget`.
 */
export const startupMachine = setup({
  types: {
    context: {} as StartupContext,
    events: {} as StartupEvent,
    input: {} as StartupInput,
  },
  actors: {
    authorise: fromPromise<AuthoriseOutput>(async () => notProvided("authorise")),
    loadApp: fromPromise<LoadAppOutput>(async () => notProvided("loadApp")),
    acknowledgeTerms: fromPromise<void>(async () => notProvided("acknowledgeTerms")),
  },
  guards: {
    isDemo: ({ context }) => context.demoMode,
    hasPendingSignUp: ({ context }) => Boolean(context.profile?.organisationSignUpStep),
    needsTerms: ({ context }) =>
      !context.terms?.hasOnceAgreedToTermsOfServiceAgreement ||
      !context.terms.hasAcceptedLatestEffectiveVersion,
    neverAgreed: ({ context }) => !context.terms?.hasOnceAgreedToTermsOfServiceAgreement,
    seemsUnavailable: (_, params: { error: unknown }) => seemsUnavailable(params.error),
    /** Provided by the app: whether this demo e-mail has not seen the tour (remembered locally). */
    tourNotYetShown: (_, _params: { email: string }) => true,
    startupDone: ({ context }) => context.authenticated !== null || context.serverUnavailable,
  },
  actions: {
    /** Provided by the app: remember locally that this demo e-mail has seen the tour. */
    rememberTour: (_, _params: { email: string }) => {},
    /** Provided by the app: go to /sign-up/{step}. */
    redirectToSignUp: (_, _params: { path: string }) => {},
    /** Provided by the app: close the chat widget. */
    closeChatWidget: () => {},
    openTour: assign({ tourOpen: true }),
  },
  delays: {
    overlayMinimum: overlayTimings.minimumMs,
    overlayFade: overlayTimings.fadeMs,
  },
}).createMachine({
  id: "startup",
  type: "parallel",
  context: ({ input }) => ({
    demoMode: input.demoMode,
    authenticated: null,
    serverUnavailable: false,
    profile: null,
    terms: null,
    actualPeriods: [],
    userIsAdmin: false,
    abilities: [],
    menu: [],
    tourOpen: false,
  }),
  on: {
    "tour.close": { actions: assign({ tourOpen: false }) },
    "profile.renamed": {
      actions: assign({
        profile: ({ context, event }) => (context.profile ? { ...context.profile, name: event.name } : null),
      }),
    },
    "organisation.changed": {
      actions: assign({
        profile: ({ context, event }) =>
          context.profile
            ? {
                ...context.profile,
                organisationName: event.organisationName,
                subscriptionCurrencyCode: event.currencyCode,
              }
            : null,
      }),
    },
  },
  states: {
    session: {
      initial: "authorising",
      states: {
        authorising: {
          entry: assign({ serverUnavailable: false }),
          invoke: {
            id: "authorise",
            src: "authorise",
            onDone: {
              target: "loading",
              actions: assign({
                profile: ({ event }) => event.output.profile,
                terms: ({ event }) => event.output.terms,
              }),
            },
            onError: [
              {
                guard: { type: "seemsUnavailable", params: ({ event }) => ({ error: event.error }) },
                target: "unavailable",
              },
              { target: "signedOut", actions: "closeChatWidget" },
            ],
          },
        },
        loading: {
          invoke: {
            id: "loadApp",
            src: "loadApp",
            onDone: {
              target: "deciding",
              actions: assign({
                actualPeriods: ({ event }) => event.output.actualPeriods,
                userIsAdmin: ({ event }) => event.output.userIsAdmin,
                abilities: ({ event }) => event.output.abilities,
                menu: ({ event }) => event.output.menu,
                authenticated: true,
              }),
            },
            onError: [
              {
                guard: { type: "seemsUnavailable", params: ({ event }) => ({ error: event.error }) },
                target: "unavailable",
              },
              { target: "signedOut", actions: "closeChatWidget" },
            ],
          },
        },
        deciding: {
          always: [
            {
              guard: "isDemo",
              target: "signedIn",
              // Demo visitors see the tour once per e-mail (docs/behaviour.md#shell-and-start-up, outcome a).
              actions: enqueueActions(({ context, enqueue, check }) => {
                const email = context.profile?.email ?? "";
                if (check({ type: "tourNotYetShown", params: { email } })) {
                  enqueue("openTour");
                  enqueue({ type: "rememberTour", params: { email } });
                }
              }),
            },
            {
              guard: "hasPendingSignUp",
              target: "signingUp",
              actions: {
                type: "redirectToSignUp",
                params: ({ context }) => ({
                  path: `/sign-up/${(context.profile?.organisationSignUpStep ?? "").toLowerCase()}`,
                }),
              },
            },
            { guard: "needsTerms", target: "terms" },
            { target: "signedIn" },
          ],
        },
        signedIn: {
          on: {
            "auth.signedOut": { target: "signedOut" },
            "permissions.refreshed": {
              actions: assign({
                userIsAdmin: ({ event }) => event.permissions.userIsAdmin,
                abilities: ({ event }) => event.permissions.abilities,
                menu: ({ event }) => event.permissions.menu,
              }),
            },
            "periods.refreshed": {
              actions: assign({ actualPeriods: ({ event }) => event.actualPeriods }),
            },
          },
        },
        signingUp: {
          on: { "auth.signedOut": { target: "signedOut" } },
        },
        terms: {
          on: {
            "terms.acknowledge": { target: "acknowledging" },
            "auth.signedOut": { target: "signedOut" },
          },
        },
        acknowledging: {
          invoke: {
            id: "acknowledgeTerms",
            src: "acknowledgeTerms",
            onDone: [
              { guard: "neverAgreed", target: "signedIn", actions: "openTour" },
              { target: "signedIn" },
            ],
            onError: { target: "terms" },
          },
        },
        signedOut: {
          entry: assign(signedOut),
          on: { "auth.signedIn": { target: "authorising" } },
        },
        unavailable: {
          entry: assign({ ...signedOut, serverUnavailable: true }),
          on: { "auth.retry": { target: "authorising" }, "auth.signedIn": { target: "authorising" } },
        },
      },
    },
    overlay: {
      initial: "visible",
      states: {
        visible: {
          after: { overlayMinimum: { target: "waiting" } },
        },
        waiting: {
          always: { guard: "startupDone", target: "fading" },
        },
        fading: {
          after: { overlayFade: { target: "hidden" } },
        },
        hidden: {},
      },
    },
  },
});
