import { costsImported, type ResponseOf } from "@varia/contracts";
import { selectActualPeriods } from "@varia/machines";
import { useEffect, useState } from "react";
import { api } from "../../api";
import { StartupContext } from "../../shell/startup-context";

/** What a screen that offers Margin says when margin equals revenue (docs/behaviour.md, "Revenue and margin"). */
export const noCostsNotes = {
  none: "No costs imported: margin equals revenue",
  adhocOnly: "Only ad hoc sales carry costs: recurring margin equals revenue",
} as const;

/** The note for an organisation's costs; null when its recurring lines carry costs. */
export function noCostsNote(costs: ResponseOf<typeof costsImported>): string | null {
  if (!costs.costsImported) return noCostsNotes.none;
  return costs.recurringCostsImported ? null : noCostsNotes.adhocOnly;
}

/**
 * The note that margin equals revenue (noCostsNote), from GET VarianceOverview/CostsImported
 * (cached), asked only while `asked` (Margin is chosen) and again when the months with data change
 * (an import); null when there is nothing to say, until known, or when the call fails, so that
 * nothing is said on a guess.
 */
export function useNoCostsNote(asked: boolean): string | null {
  const periods = StartupContext.useSelector(selectActualPeriods);
  const [note, setNote] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: new months of data may bring the first costs
  useEffect(() => {
    if (!asked) return;
    let live = true;
    api
      .call(costsImported, {}, { cache: true })
      .then((answer) => live && setNote(noCostsNote(answer)))
      .catch(() => live && setNote(null));
    return () => {
      live = false;
    };
  }, [asked, periods]);
  return asked ? note : null;
}
