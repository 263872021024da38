import {
  type ReportCatalogueEntry,
  type ReportFilter,
  type ReportID,
  reportCatalogue,
  reportGetFilter,
  reportIDs,
  reportName,
} from "@varia/contracts";
import { selectHasNoData } from "@varia/machines";
import { useEffect, useMemo, useState } from "react";
import { Link, useLocation, useNavigate, useParams } from "react-router";
import { api } from "../../api";
import { EmptyState, PageFrame } from "../../pages/PageFrame";
import { StartupContext } from "../../shell/startup-context";
import { Icon } from "../../ui/Icon";
import { NoDataYet } from "../NoDataYet";
import { Breadcrumbs } from "../navigation/Breadcrumbs";
import { ReportFilters } from "./ReportFilters";
import { ReportResults } from "./ReportResults";
import { type ReportValues, readReportValues, reportValuesSearch } from "./report-values";

type Definition = { name: string; description: string; filters: ReportFilter[] };

/**
 * `/variance/reports/types/{reportChosen}`: the report's filters (getReportFilter), Run, and its
 * rows. The values of a run are in the address (with `run`), so a run can be shared and Back undoes
 * one.
 */
export function ReportPage() {
  const { reportChosen = "" } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const known = (reportIDs as readonly string[]).includes(reportChosen);
  const [definition, setDefinition] = useState<Definition | "failed" | null>(null);
  const [draft, setDraft] = useState<ReportValues>({});
  const [labels, setLabels] = useState<Record<string, string>>({});
  const noData = StartupContext.useSelector(selectHasNoData);
  useEffect(() => {
    if (!known) return;
    let live = true;
    setDefinition(null);
    api
      .call(reportGetFilter, { query: { reportID: reportChosen as ReportID } })
      .then((d) => live && setDefinition(d))
      .catch(() => live && setDefinition("failed"));
    return () => {
      live = false;
    };
  }, [reportChosen, known]);
  const shown = useMemo(
    () =>
      definition && definition !== "failed" ? readReportValues(definition.filters, location.search) : null,
    [definition, location.search],
  );
  useEffect(() => {
    if (shown) setDraft(shown);
  }, [shown]);
  const ran = new URLSearchParams(location.search).get("run") === "1";
  // A report named for revenue is named for margin when the address's view is Margin ('Margin by
  // segment'), as its run and its files are (docs/behaviour.md, "Reports").
  const entry: ReportCatalogueEntry | undefined = reportCatalogue.find((r) => r.reportID === reportChosen);
  const title =
    definition && definition !== "failed"
      ? entry
        ? reportName(entry, typeof shown?.dataType === "string" ? shown.dataType : null)
        : definition.name
      : "Report";
  const crumbs = (
    <Breadcrumbs
      crumbs={[
        { level: 1, label: "Reports", href: "/variance/reports/types" },
        { level: 2, label: title, href: `${location.pathname}${location.search}` },
      ]}
    />
  );
  if (!known)
    return (
      <PageFrame title="Report" lead={crumbs}>
        <EmptyState title="There is no such report">
          <Link to="/variance/reports/types">See every report</Link>
        </EmptyState>
      </PageFrame>
    );
  if (noData)
    return (
      <NoDataYet title={title} lead={crumbs}>
        <p>A report is computed from the months of invoice lines an import brings; there are none yet.</p>
      </NoDataYet>
    );
  return (
    <PageFrame title={title} lead={crumbs}>
      {definition === null ? (
        <div className="spinner spinner--dark" role="status" aria-label="Loading the report's filters" />
      ) : definition === "failed" ? (
        <EmptyState title="The report's filters could not be loaded">
          <p>Please try again.</p>
        </EmptyState>
      ) : (
        <>
          <p className="page__subtitle">
            {shown?.dataType === "Margin" && entry?.marginDescription
              ? entry.marginDescription
              : definition.description}
          </p>
          <form
            className="card report-form"
            aria-label="Filters of the report"
            onSubmit={(event) => {
              event.preventDefault();
              navigate({ pathname: location.pathname, search: reportValuesSearch(draft) });
            }}
          >
            <ReportFilters
              filters={definition.filters}
              values={draft}
              labels={labels}
              onChange={(name, value, label) => {
                setDraft((d) => ({ ...d, [name]: value }));
                if (label) setLabels((l) => ({ ...l, [name]: label }));
              }}
            />
            <div className="report-form__actions">
              <button type="submit" className="button button--primary">
                <Icon name="play" size={16} />
                Run
              </button>
            </div>
          </form>
          {ran && shown ? <ReportResults reportID={reportChosen} values={shown} /> : null}
        </>
      )}
    </PageFrame>
  );
}
