import type { SnapshotFrom } from "xstate";
import { cardMachine, cardMessages } from "./card-machine";

type Snapshot = SnapshotFrom<typeof cardMachine>;

/** 'loading' | 'error' | 'empty' | 'content': what the card shows. */
export const selectCardView = (s: Snapshot) => {
  if (s.matches("loading")) return "loading" as const;
  if (s.matches("error")) return "error" as const;
  const data = s.context.data;
  return data === null || data === undefined || (Array.isArray(data) && data.length === 0)
    ? ("empty" as const)
    : ("content" as const);
};
export const selectCardMessage = (s: Snapshot) => {
  const view = selectCardView(s);
  return view === "error" ? cardMessages.error : view === "empty" ? cardMessages.empty : null;
};
export const selectCardExpanded = (s: Snapshot) => s.matches({ shown: "expanded" });
export { cardMachine };
