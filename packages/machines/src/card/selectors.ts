import type { SnapshotFrom } from "xstate";
import { cardMachine, cardMessages } from "./card-machine";

type Snapshot = SnapshotFrom<typeof cardMachine>;

/** 'loading' | 'error' | 'empty' | 'content': what the card shows. */
export const selectCardView = (s: Snapshot) => {
  if (s.matches({ data: "loading" })) return "loading" as const;
  if (s.matches({ data: "error" })) return "error" as const;
  const data = s.context.data;
  return data === null || data === undefined || (Array.isArray(data) && data.length === 0)
    ? ("empty" as const)
    : ("content" as const);
};
export const selectCardMessage = (s: Snapshot) => {
  const view = selectCardView(s);
  return view === "error" ? cardMessages.error : view === "empty" ? cardMessages.empty : null;
};
export const selectCardExpanded = (s: Snapshot) => s.matches({ view: "expanded" });
export const selectCardHelpShown = (s: Snapshot) => s.matches({ help: "shown" });
export const selectCardData = (s: Snapshot) => s.context.data;
export const selectCardPeriod = (s: Snapshot) => s.context.period;
export const selectCardToggle = (s: Snapshot) => s.context.toggle;
export const selectCardSearch = (s: Snapshot) => s.context.search;
export { cardMachine };
