import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";

/*
 * What the chart and grid doors share to draw first without their library and take it on later
 * (apps/web/README.md, "Heavy libraries behind one door each").
 */

/**
 * Runs `run` when the browser's main thread is next idle, at the latest after `timeoutMs`; returns
 * a cancel.
 */
export function whenIdle(run: () => void, timeoutMs = 2000): () => void {
  if (typeof requestIdleCallback === "function") {
    const handle = requestIdleCallback(run, { timeout: timeoutMs });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(run, 1);
  return () => clearTimeout(handle);
}

/**
 * Whether a door wants its library now: at once when `now`, else when the page is next idle or
 * when `want` is called (the first drawing pointed at).
 */
export function useLibraryWanted(now: boolean): [boolean, () => void] {
  const [wanted, setWanted] = useState(now);
  const want = useCallback(() => setWanted(true), []);
  useEffect(() => {
    if (wanted) return;
    return whenIdle(want);
  }, [wanted, want]);
  return [wanted, want];
}

const pointing = ["pointerenter"] as const;

/**
 * A first drawing's box: its width once laid out (the drawing is made for it), and `onWanted`
 * called on `events` in it (pointing at it, moving the focus into it): these are listened to, not
 * offered as actions, since they only prepare the library.
 */
export function useFirstDrawingBox<E extends HTMLElement>(
  onWanted: () => void,
  events: readonly string[] = pointing,
): { box: RefObject<E | null>; width: number | null } {
  const box = useRef<E>(null);
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    if (box.current) setWidth(box.current.clientWidth);
  }, []);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    for (const event of events) element.addEventListener(event, onWanted);
    return () => {
      for (const event of events) element.removeEventListener(event, onWanted);
    };
  }, [onWanted, events]);
  return { box, width };
}
