import { type RefObject, useEffect } from "react";

/** Whether a page has been shown since the app started: the first one leaves the focus alone. */
let pageShown = false;

/**
 * After a navigation to another page, the focus moves to the new page's heading when it was lost
 * with the page left (a drill-down link, Back), so that the keyboard carries on from the top of the
 * new page and a screen reader reads its name. The first page of a visit leaves the focus at the
 * start of the document (the skip link first); a focus still held (the side menu's link, the top
 * bar, a dialog, a field of the new page) stays where it is (docs/behaviour.md, "Keyboard").
 */
export function usePageHeadingFocus(heading: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const first = !pageShown;
    pageShown = true;
    const element = heading.current;
    if (first || !element) return;
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected) element.focus({ preventScroll: true });
  }, [heading]);
}
