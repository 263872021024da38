import { selectActualPeriods } from "@varia/machines";
import { useCallback, useMemo } from "react";
import { useLocation, useNavigate } from "react-router";
import { StartupContext } from "../../shell/startup-context";
import { readViewFilter, type ViewFilter, viewFilterSearch, withFilter } from "./view-filter";

/**
 * The view's filter from the address bar, with the default periods from the actual periods; and a
 * setter that writes changes back to the address (a new history entry, so Back undoes a change).
 */
export function useViewFilter(): {
  filter: ViewFilter;
  /** Writes changes to the address: a new history entry, or in place with `replace`. */
  setFilter: (changes: Partial<ViewFilter>, options?: { replace?: boolean }) => void;
} {
  const periods = StartupContext.useSelector(selectActualPeriods);
  const location = useLocation();
  const navigate = useNavigate();
  const filter = useMemo(
    () => readViewFilter(location.search, periods, location.pathname),
    [location.search, periods, location.pathname],
  );
  const setFilter = useCallback(
    (changes: Partial<ViewFilter>, options: { replace?: boolean } = {}) =>
      navigate(
        {
          pathname: location.pathname,
          search: viewFilterSearch(withFilter(filter, changes), location.pathname),
        },
        { replace: options.replace ?? false },
      ),
    [navigate, location.pathname, filter],
  );
  return { filter, setFilter };
}
