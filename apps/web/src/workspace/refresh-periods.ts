import type { ActorRefFrom } from "xstate";
import { api } from "../api";
import { type appStartupMachine, fetchActualPeriods } from "../shell/startup-context";

type StartupRef = ActorRefFrom<typeof appStartupMachine>;

/**
 * Asks the server again for the months with actual data and hands start-up the answer when it
 * differs from what the app shows (`periods.refreshed`): the filters' default months and the
 * period pickers follow an import or a restore without a reload (docs/behaviour.md#periods).
 */
export async function refreshActualPeriods(startup: StartupRef) {
  const periods = await fetchActualPeriods();
  const shown = startup.getSnapshot().context.actualPeriods;
  if (JSON.stringify(periods) !== JSON.stringify(shown))
    startup.send({ type: "periods.refreshed", actualPeriods: periods });
}

/**
 * A job (an import, a restore) changed the organisation's data: every cached answer is forgotten,
 * and the months with data are asked again.
 */
export function afterDataChanged(startup: StartupRef) {
  api.clearCache();
  refreshActualPeriods(startup).catch(() => {});
}
