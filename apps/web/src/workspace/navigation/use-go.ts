import { useCallback } from "react";
import { useLocation, useNavigate } from "react-router";
import { isSameLocation } from "./route-position";

/** Navigates to an address, unless it is the one shown (navigating to the same location is ignored). */
export function useGo() {
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(
    (href: string, options: { replace?: boolean } = {}) => {
      if (isSameLocation(location, href)) return;
      navigate(href, options);
    },
    [navigate, location],
  );
}
