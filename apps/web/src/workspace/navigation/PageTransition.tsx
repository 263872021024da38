import { type ReactNode, useRef } from "react";
import { useLocation } from "react-router";
import { type TransitionDirection, transitionDirection } from "./route-position";

/**
 * The page under the frame, coming in from the direction of its route's position (a deeper level
 * from below, a section further down the menu from the right). A change of the query alone (a filter,
 * a type switched in place) keeps the page where it is. No motion when the user asks for less.
 */
export function PageTransition({ children }: { children: ReactNode }) {
  const location = useLocation();
  const shown = useRef({ path: location.pathname, key: 0, direction: "none" as TransitionDirection });
  if (shown.current.path !== location.pathname) {
    shown.current = {
      path: location.pathname,
      key: shown.current.key + 1,
      direction: transitionDirection(shown.current.path, location.pathname),
    };
  }
  const { key, direction } = shown.current;
  return (
    <div key={key} className={`page-transition page-transition--${direction}`} data-transition={direction}>
      {children}
    </div>
  );
}
