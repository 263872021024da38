import { assign, setup } from "xstate";

/** docs/behaviour.md#cards-and-pop-ups: after a pop-up closes, the next one appears 100 ms later. */
export const popupQueueDelayMs = 100;

export interface Popup {
  id: string;
  title: string;
  body?: string;
}

export interface PopupQueueContext {
  queue: Popup[];
  current: Popup | null;
}

export type PopupQueueEvent = { type: "popup.enqueue"; popup: Popup } | { type: "popup.close" };

/**
 * The pop-up queue (docs/behaviour.md#cards-and-pop-ups): one pop-up at a time; the next 100 ms after a
 * close.
 */
export const popupQueueMachine = setup({
  types: { context: {} as PopupQueueContext, events: {} as PopupQueueEvent },
  actions: {
    enqueue: assign({
      queue: ({ context, event }) =>
        event.type === "popup.enqueue" ? [...context.queue, event.popup] : context.queue,
    }),
    showNext: assign({
      current: ({ context }) => context.queue[0] ?? null,
      queue: ({ context }) => context.queue.slice(1),
    }),
    hide: assign({ current: null }),
  },
  guards: { hasQueued: ({ context }) => context.queue.length > 0 },
  delays: { nextPopup: popupQueueDelayMs },
}).createMachine({
  id: "popupQueue",
  context: { queue: [], current: null },
  initial: "idle",
  on: { "popup.enqueue": { actions: "enqueue" } },
  states: {
    idle: {
      always: { guard: "hasQueued", target: "showing" },
    },
    showing: {
      entry: "showNext",
      on: { "popup.close": { target: "pausing", actions: "hide" } },
    },
    pausing: {
      after: { nextPopup: { target: "idle" } },
    },
  },
});
