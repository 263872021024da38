import { selectActualPeriods } from "@varia/machines";
import { useCallback, useMemo } from "react";
import { useLocation, useNavigate } from "react-router";
import { StartupContext } from "../../shell/startup-context";
import { readViewFilter, type ViewFilter, viewFilterSearch, withFilter } from "./view-filter";

/**
 * The view's filter from the address bar, with the default periods from the actual periods; and a
 * setter that writes changes back to the address (a new history entry, so Back undoes a change).
 */
export function useViewFilter(): { filter: ViewFilter; setFilter: (changes: Partial<ViewFilter>) => void } {
  const periods = StartupContext.useSelector(selectActualPeriods);
  const location = useLocation();
  const navigate = useNavigate();
  const filter = useMemo(() => readViewFilter(location.search, periods), [location.search, periods]);
  const setFilter = useCallback(
    (changes: Partial<ViewFilter>) =>
      navigate({ pathname: location.pathname, search: viewFilterSearch(withFilter(filter, changes)) }),
    [navigate, location.pathname, filter],
  );
  return { filter, setFilter };
}
