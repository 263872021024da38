import type { NavigateFunction } from "react-router";

/** The router's navigate function, for machine actions that run outside React. */
export const navigation: { navigate: NavigateFunction | null } = { navigate: null };

export function navigateTo(path: string, replace = false) {
  if (navigation.navigate) navigation.navigate(path, { replace });
  else window.location.assign(path);
}
