import { getAuthorisedMenu, permissionPing } from "@varia/contracts";
import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { api } from "../api";
import { StartupContext } from "../shell/startup-context";
import { refreshActualPeriods } from "./refresh-periods";

/**
 * Asks the server again for the user's abilities and menu on every page after the first: an
 * administrator may have changed their roles since start-up (the server applies a change on the
 * next call), or deleted or disabled them, and then the session has ended (401: signed out). The
 * months with data are asked again too (the client keeps that answer 60 s): an import made
 * elsewhere (the CLI, another user) shows on a later page without a reload.
 */
export function usePermissionRefresh() {
  const { pathname } = useLocation();
  const startup = StartupContext.useActorRef();
  // Start-up has just asked for the first page's.
  const asked = useRef(pathname);
  useEffect(() => {
    if (asked.current === pathname) return;
    asked.current = pathname;
    let current = true;
    refreshActualPeriods(startup).catch(() => {});
    Promise.all([api.call(permissionPing), api.call(getAuthorisedMenu)]).then(
      ([permissions, menu]) => {
        if (!current) return;
        startup.send({
          type: "permissions.refreshed",
          permissions: {
            userIsAdmin: permissions.userIsAdmin,
            abilities: permissions.userRoleAbilities,
            menu: menu.items,
          },
        });
      },
      (error: { status?: number }) => {
        if (error.status !== 401) return;
        api.clearCache();
        startup.send({ type: "auth.signedOut" });
      },
    );
    return () => {
      current = false;
    };
  }, [pathname, startup]);
}
