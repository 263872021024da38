import { powerfulBar, type ResponseOf } from "@varia/contracts";
import { useEffect, useState } from "react";
import { ToggleButton, ToggleButtonGroup } from "react-aria-components";
import { api } from "../../api";
import { Change, useFormat } from "../../ui/format";
import { analyticsQuery, type Sign, type VarianceType, type ViewFilter } from "../filters/view-filter";
import { varianceStepLabel, varianceTypeOrder } from "../variance-labels";

type ByType = ResponseOf<typeof powerfulBar>["byType"];

/**
 * The control that switches level 2's type and sign in place: every step of the waterfall with its
 * amount (PowerfulBar), the one shown pressed. Transfers appear when the view is of a salesperson.
 */
export function StepPicker({
  filter,
  onPick,
}: {
  filter: ViewFilter;
  onPick: (varType: VarianceType, sign: Sign) => void;
}) {
  const format = useFormat();
  const [byType, setByType] = useState<ByType | null>(null);
  const query = JSON.stringify(analyticsQuery(filter));
  useEffect(() => {
    let live = true;
    api
      .call(powerfulBar, { query: JSON.parse(query) })
      .then((r) => live && setByType(r.byType))
      .catch(() => live && setByType(null));
    return () => {
      live = false;
    };
  }, [query]);
  const withTransfer = Boolean(filter.salespersonID || filter.salesperson) || filter.varType === "Transfer";
  const types = varianceTypeOrder.filter((t) => t !== "Transfer" || withTransfer);
  const selected = `${filter.varType}:${filter.sign}`;
  return (
    <ToggleButtonGroup
      aria-label="Variance type and sign"
      className="step-picker"
      selectionMode="single"
      disallowEmptySelection
      selectedKeys={[selected]}
      onSelectionChange={(keys) => {
        const [key] = [...keys];
        if (key === undefined || key === selected) return;
        const [type, sign] = String(key).split(":") as [VarianceType, Sign];
        onPick(type, sign);
      }}
    >
      {types.flatMap((type) =>
        (["Positive", "Negative"] as const).map((sign) => {
          const cents = byType ? byType[type][sign === "Positive" ? "positiveCents" : "negativeCents"] : null;
          return (
            <ToggleButton key={`${type}:${sign}`} id={`${type}:${sign}`} className="step-picker__step">
              <span className="step-picker__label">{varianceStepLabel(type, sign)}</span>
              <span className="step-picker__amount">
                {cents === null ? "…" : <Change value={cents} text={format.money(cents, { signed: true })} />}
              </span>
            </ToggleButton>
          );
        }),
      )}
    </ToggleButtonGroup>
  );
}
