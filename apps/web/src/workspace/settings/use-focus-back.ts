import { useCallback, useEffect, useRef } from "react";

/**
 * A button disabled while its step runs (Send password link, Create backup) loses the keyboard's
 * focus: the browser moves it to the page, and the next Tab starts again from the top. Call the
 * returned function as the step starts; when `busy` ends, the element that had the focus then gets
 * it back, unless the focus has gone somewhere else meanwhile or the element is gone.
 */
export function useFocusBack(busy: boolean): () => void {
  const held = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (busy) return;
    const element = held.current;
    held.current = null;
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (element?.isConnected && lost && !element.matches(":disabled")) element.focus();
  }, [busy]);
  return useCallback(() => {
    held.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  }, []);
}
