import { periodFormat, periodFromKey } from "@varia/period";
import { Link } from "react-router";
import { Icon } from "../../ui/Icon";
import { CardGrid } from "../cards/CardGrid";
import { subjectKind } from "../cards/subject";
import { useViewFilter } from "../filters/use-view-filter";
import type { ViewFilter } from "../filters/view-filter";
import { DrillPage } from "../navigation/DrillPage";
import { level1Href, level4Href, type SubjectNames, subjectLabel } from "../navigation/drill-path";
import { useSubjectNames } from "../navigation/use-subject-names";
import { measureName } from "../variance-labels";
import { level3DrawnMark, level3Layouts } from "./level-3-layouts";
import { SubjectChooser } from "./SubjectChooser";

const kindNames = {
  client: "Client",
  service: "Service",
  clientService: "A client's service",
  salesperson: "Salesperson",
} as const;

/** The id the address gives a subject the data has not got ('#99999'). */
function unknownId(filter: ViewFilter, unknown: NonNullable<SubjectNames["unknown"]>) {
  const id =
    unknown === "client"
      ? filter.thirdClientID
      : unknown === "service"
        ? filter.thirdStockItemID
        : filter.salespersonID;
  return `#${id}`;
}

/**
 * Level 3, `/variance/dashboard/specific`: one client, service, client's service or salesperson (the
 * address's thirdClientID, thirdStockItemID, or a salesperson alone), in the layout of its kind; the
 * revenue/margin toggle, the filter button and Invoice Data (level 4 of the same view).
 */
export function Level3Page() {
  const { filter, setFilter } = useViewFilter();
  const names = useSubjectNames(filter);
  const kind = subjectKind(filter);
  const month = (key: string | null) => (key ? periodFormat(periodFromKey(key)) : "");
  const title = kind ? subjectLabel(filter, names) : "Specific";
  return (
    <DrillPage
      level={3}
      title={title}
      filter={filter}
      setFilter={setFilter}
      names={names}
      actions={
        kind && !names.unknown ? (
          <Link className="button button--primary" to={level4Href(filter)}>
            <Icon name="reports" size={16} />
            Invoice Data
          </Link>
        ) : null
      }
      subtitle={
        kind ? (
          <>
            {kindNames[kind]}: {measureName(filter.dataType)} from <strong>{month(filter.dateFrom)}</strong>{" "}
            to <strong>{month(filter.dateTo)}</strong>
          </>
        ) : null
      }
    >
      {kind && names.unknown ? (
        <div className="empty-state" role="status">
          <p>
            There is no {names.unknown} {unknownId(filter, names.unknown)} in this organisation's data: the
            address names one that was never imported.
          </p>
          <Link to={level1Href(filter)}>Go to level 1</Link>
        </div>
      ) : kind ? (
        <CardGrid layout={level3Layouts[kind]} filter={filter} markName={level3DrawnMark} />
      ) : (
        <SubjectChooser filter={filter} />
      )}
    </DrillPage>
  );
}
