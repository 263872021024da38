import { lookupReportList, type ReportSummary } from "@varia/contracts";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { api } from "../../api";
import { EmptyState, PageFrame } from "../../pages/PageFrame";
import { Icon } from "../../ui/Icon";

/** `/variance/reports/types`: a tile per report of GetReportList, searched as you type. */
export function ReportTypesPage() {
  const [text, setText] = useState("");
  const [reports, setReports] = useState<ReportSummary[] | "failed" | null>(null);
  useEffect(() => {
    let live = true;
    const wanted = text.trim();
    const timer = setTimeout(
      () =>
        api
          .call(lookupReportList, { query: wanted ? { value: wanted } : {} })
          .then((r) => live && setReports(r))
          .catch(() => live && setReports("failed")),
      wanted ? 150 : 0,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text]);
  return (
    <PageFrame title="Reports">
      <p className="page__subtitle">
        Every report is computed by the same engine as the dashboards; run one, then download it as CSV or
        XLSX.
      </p>
      <input
        className="report-search"
        type="search"
        aria-label="Search the reports"
        placeholder="Search for..."
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      {reports === null ? (
        <div className="spinner spinner--dark" role="status" aria-label="Loading the reports" />
      ) : reports === "failed" ? (
        <EmptyState title="The reports could not be listed">
          <p>Please try again.</p>
        </EmptyState>
      ) : reports.length === 0 ? (
        <p role="status">No results</p>
      ) : (
        <ul className="report-tiles">
          {reports.map((r) => (
            <li key={r.reportID}>
              <Link className="report-tile" to={`/variance/reports/types/${r.reportID}`}>
                <span className="report-tile__icon" aria-hidden="true">
                  <Icon name={r.reportID === "forecast" ? "forecast" : "reports"} size={20} />
                </span>
                <span className="report-tile__name">{r.name}</span>
                <span className="report-tile__description">{r.description}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </PageFrame>
  );
}
