import { assign, setup } from "xstate";

/** docs/api.md#analytics-records: records are sent 1 s after the last one is queued. */
export const analyticsDebounceMs = 1000;

/** An analytics record (docs/api.md#analytics-records). */
export interface AnalyticsRecord {
  recordType: string;
  recordData: string;
  keys: { key1?: string; key2?: string; key3?: string };
  timeAgoMs: number;
}

export interface AnalyticsContext {
  enabled: boolean;
  queue: { record: Omit<AnalyticsRecord, "timeAgoMs">; at: number }[];
}

export type AnalyticsEvent =
  | { type: "analytics.record"; record: Omit<AnalyticsRecord, "timeAgoMs">; at: number }
  | { type: "analytics.enable"; enabled: boolean };

/** The front-end 404 record of an unknown route (docs/behaviour.md#routes). */
export function notFoundRecord(path: string): Omit<AnalyticsRecord, "timeAgoMs"> {
  return { recordType: "FrontEnd404", recordData: path, keys: { key1: path } };
}

/** A feature-usage record (card expanded or shrunk, help text shown or hidden). */
export function featureUsageRecord(feature: string, action: string): Omit<AnalyticsRecord, "timeAgoMs"> {
  return {
    recordType: "FeatureUsage",
    recordData: `${feature}: ${action}`,
    keys: { key1: feature, key2: action },
  };
}

/**
 * The analytics queue (docs/api.md#analytics-records): records are queued only while recording is enabled and
 * sent in one `PUT analytics/general` 1 s after the last one; each carries how long ago it happened. The app
 * provides the action `send` (and the event times, so tests need no clock of their own).
 */
export const analyticsMachine = setup({
  types: { context: {} as AnalyticsContext, events: {} as AnalyticsEvent, input: {} as { enabled: boolean } },
  actions: {
    send: (_, _params: { records: AnalyticsRecord[] }) => {},
  },
  guards: { enabled: ({ context }) => context.enabled },
  delays: { debounce: analyticsDebounceMs },
}).createMachine({
  id: "analytics",
  context: ({ input }) => ({ enabled: input.enabled, queue: [] }),
  initial: "idle",
  on: {
    "analytics.enable": { actions: assign({ enabled: ({ event }) => event.enabled }) },
  },
  states: {
    idle: {
      on: {
        "analytics.record": {
          guard: "enabled",
          target: "waiting",
          actions: assign({
            queue: ({ context, event }) => [...context.queue, { record: event.record, at: event.at }],
          }),
        },
      },
    },
    waiting: {
      on: {
        "analytics.record": {
          guard: "enabled",
          target: "waiting",
          reenter: true,
          actions: assign({
            queue: ({ context, event }) => [...context.queue, { record: event.record, at: event.at }],
          }),
        },
      },
      after: {
        debounce: {
          target: "idle",
          actions: [
            {
              type: "send",
              params: ({ context }) => {
                const sentAt = Math.max(...context.queue.map((q) => q.at)) + analyticsDebounceMs;
                return {
                  records: context.queue.map((q) => ({ ...q.record, timeAgoMs: Math.round(sentAt - q.at) })),
                };
              },
            },
            assign({ queue: [] }),
          ],
        },
      },
    },
  },
});
