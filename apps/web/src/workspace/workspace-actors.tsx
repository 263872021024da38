import { putAnalyticsGeneral } from "@varia/contracts";
import {
  type AnalyticsRecord,
  analyticsMachine,
  type Popup,
  popupQueueMachine,
  workspaceMachine,
} from "@varia/machines";
import { createActorContext } from "@xstate/react";
import { useCallback } from "react";
import { api } from "../api";

const menuKey = "varia.sideMenuExpanded";

/** The widths at which the frame is one column (workspace.css): the menu a strip, the map over the page. */
export const narrowScreen = "(max-width: 900px)";

function rememberedMenu(): boolean {
  try {
    const stored = localStorage.getItem(menuKey);
    if (stored !== null) return stored === "true";
  } catch {
    // Storage may be refused: fall back to the screen's width.
  }
  return typeof window === "undefined" || !window.matchMedia(narrowScreen).matches;
}

/** The frame's panels (side menu, search, navigation map, profile), the menu's state kept locally. */
export const WorkspaceContext = createActorContext(
  workspaceMachine.provide({
    actions: {
      rememberMenu: (_, params) => {
        try {
          localStorage.setItem(menuKey, String(params.expanded));
        } catch {
          // Not remembered; the menu still toggles.
        }
      },
    },
  }),
);
export const workspaceInput = () => ({ menuExpanded: rememberedMenu() });

/** The pop-up queue: one pop-up at a time, the next 100 ms after a close. */
export const PopupContext = createActorContext(popupQueueMachine);

let popupCount = 0;

/** Queues an alert (a pop-up with a title and an optional body). */
export function useAlert() {
  const popups = PopupContext.useActorRef();
  return useCallback(
    (title: string, body?: string) => {
      const popup: Popup = { id: `popup-${++popupCount}`, title, ...(body ? { body } : {}) };
      popups.send({ type: "popup.enqueue", popup });
    },
    [popups],
  );
}

/** The workspace's analytics records, sent together 1 s after the last (PUT analytics/general). */
export const AnalyticsContext = createActorContext(
  analyticsMachine.provide({
    actions: {
      send: (_, params) => {
        // Analytics never disturb the user: a failed send is dropped.
        api.call(putAnalyticsGeneral, { body: params.records }).catch(() => {});
      },
    },
  }),
);

/** Records one analytics record now. */
export function useRecordUsage() {
  const analytics = AnalyticsContext.useActorRef();
  return useCallback(
    (record: Omit<AnalyticsRecord, "timeAgoMs">) =>
      analytics.send({ type: "analytics.record", record, at: Math.round(performance.now()) }),
    [analytics],
  );
}
