import { assign, emit, setup } from "xstate";

/** The demo form's messages (docs/behaviour.md#validation, #messages), verbatim. */
export const demoFormMessages = {
  name: "Please enter a name",
  email: "Please enter a valid business email",
  serverRejectedEmail: "Email is not a valid business email",
  failed: "Demo signup failed, please try again",
} as const;

export const defaultBlockedDemoDomains = ["gmail.com", "yahoo.com", "hotmail.com", "outlook.com"] as const;

export interface DemoFormInput {
  blockedDomains?: readonly string[];
  userAgent?: string;
}

export interface DemoFormContext {
  name: string;
  email: string;
  errors: { name: string[]; email: string[]; form: string[] };
  isRequesting: boolean;
  blockedDomains: readonly string[];
  phoneDetected: boolean;
}

export type DemoFormEvent =
  | { type: "form.editName"; value: string }
  | { type: "form.editEmail"; value: string }
  | { type: "form.submit" }
  | { type: "form.cancel" }
  | { type: "form.requesting"; value: boolean }
  /** Errors from outside (the server's answer) replace the local ones. */
  | { type: "form.errors"; errors: Partial<DemoFormContext["errors"]> }
  /** A failed request: the server's message, mapped to the field it concerns. */
  | { type: "form.failed"; message?: string };

export type DemoFormEmitted =
  | { type: "demoRequest"; name: string; email: string; phoneDetected: boolean }
  | { type: "cancel" };

/** docs/behaviour.md#validation: non-empty, contains '@', and not at a blocked (non-business) domain. */
export function isBusinessEmail(email: string, blocked: readonly string[]): boolean {
  const value = email.trim().toLowerCase();
  if (!value.includes("@")) return false;
  return !blocked.some((domain) => value.endsWith(domain.toLowerCase()));
}

function validate(context: DemoFormContext) {
  return {
    name: context.name.trim() ? [] : [demoFormMessages.name],
    email: isBusinessEmail(context.email, context.blockedDomains) ? [] : [demoFormMessages.email],
    form: [],
  };
}

/**
 * The demo request form (docs/behaviour.md#demo-request, #validation): validation, the isRequesting flag,
 * errors from outside, editing a field clears its errors, cancel, and a valid submit emitting the demo
 * request.
 */
export const demoFormMachine = setup({
  types: {
    context: {} as DemoFormContext,
    events: {} as DemoFormEvent,
    input: {} as DemoFormInput,
    emitted: {} as DemoFormEmitted,
  },
}).createMachine({
  id: "demoForm",
  context: ({ input }) => ({
    name: "",
    email: "",
    errors: { name: [], email: [], form: [] },
    isRequesting: false,
    blockedDomains: input.blockedDomains ?? defaultBlockedDemoDomains,
    phoneDetected: (input.userAgent ?? "").includes("Mobi"),
  }),
  on: {
    "form.editName": {
      actions: assign({
        name: ({ event }) => event.value,
        errors: ({ context }) => ({ ...context.errors, name: [] }),
      }),
    },
    "form.editEmail": {
      actions: assign({
        email: ({ event }) => event.value,
        errors: ({ context }) => ({ ...context.errors, email: [] }),
      }),
    },
    "form.requesting": { actions: assign({ isRequesting: ({ event }) => event.value }) },
    "form.errors": {
      actions: assign({
        errors: ({ event }) => ({
          name: event.errors.name ?? [],
          email: event.errors.email ?? [],
          form: event.errors.form ?? [],
        }),
      }),
    },
    "form.failed": {
      actions: assign({
        isRequesting: false,
        errors: ({ context, event }) =>
          event.message === demoFormMessages.serverRejectedEmail
            ? { ...context.errors, email: [demoFormMessages.email] }
            : { ...context.errors, form: [demoFormMessages.failed] },
      }),
    },
    "form.cancel": { actions: emit({ type: "cancel" }) },
    "form.submit": [
      {
        guard: ({ context }) => {
          const errors = validate(context);
          return errors.name.length === 0 && errors.email.length === 0;
        },
        actions: [
          assign({ errors: { name: [], email: [], form: [] } }),
          emit(({ context }) => ({
            type: "demoRequest" as const,
            name: context.name.trim(),
            email: context.email.trim(),
            phoneDetected: context.phoneDetected,
          })),
        ],
      },
      { actions: assign({ errors: ({ context }) => validate(context) }) },
    ],
  },
});
