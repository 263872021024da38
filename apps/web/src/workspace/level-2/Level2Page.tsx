import { periodFormat, periodFromKey } from "@varia/period";
import { CardGrid } from "../cards/CardGrid";
import { useViewFilter } from "../filters/use-view-filter";
import { DrillPage } from "../navigation/DrillPage";
import { measureName, varianceStepLabel } from "../variance-labels";
import { level2DrawnMark, level2Layouts } from "./level-2-layouts";
import { StepPicker } from "./StepPicker";

/**
 * Level 2, `/variance/dashboard/positiveOrNegative`: the contributors of one variance type and sign,
 * in the layout of that type; their total is the waterfall step they came from. The step picker
 * switches type and sign in place (the address is replaced, so Back still goes up to level 1).
 */
export function Level2Page() {
  const { filter, setFilter } = useViewFilter();
  const type = filter.varType ?? "Client";
  const sign = filter.sign ?? "Positive";
  const title = varianceStepLabel(type, sign);
  const month = (key: string | null) => (key ? periodFormat(periodFromKey(key)) : "");
  return (
    <DrillPage
      level={2}
      title={title}
      filter={filter}
      setFilter={setFilter}
      names={{}}
      subtitle={
        <>
          The {type === "Client" || type === "Transfer" ? "clients" : "services of clients"} behind this step
          of {measureName(filter.dataType)}, from <strong>{month(filter.dateFrom)}</strong> to{" "}
          <strong>{month(filter.dateTo)}</strong>
          {filter.stockType ? `, ${filter.stockType.toLowerCase()} only` : ", every stock type"}
        </>
      }
    >
      <StepPicker
        filter={filter}
        onPick={(varType, s) => setFilter({ varType, sign: s }, { replace: true })}
      />
      {type === "Transfer" && !filter.salespersonID && !filter.salesperson ? (
        <p className="page__note" role="note">
          Transfers between salespeople appear when the view is of one salesperson: choose one with the filter
          button.
        </p>
      ) : null}
      <CardGrid layout={level2Layouts[type]} filter={filter} markName={level2DrawnMark} />
    </DrillPage>
  );
}
