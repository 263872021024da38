import {
  abilities,
  helpText,
  lookupClientList,
  lookupReportList,
  lookupSalespersonList,
  lookupSkuList,
  missingAbilityMessage,
  reportCatalogue,
  reportExport,
  reportGetFilter,
  reportRun,
} from "@varia/contracts";
import type { FastifyInstance } from "fastify";
import { analysisFor } from "../analytics/cube-cache";
import { latestInvoicedMonth } from "../analytics/latest-invoiced-month";
import { AppError } from "../errors";
import { holdsAbility } from "../http/auth-context";
import { registerContract } from "../http/contract-route";
import { csvDownload } from "../http/csv-download";
import type { AppDeps } from "../http/deps";
import { findClientPage, findSalespersonPage, findSkuPage } from "../lines/find-dimension-page";
import { findHelpText } from "../reports/find-help-text";
import { reportFilters } from "../reports/report-filters";
import { runReport } from "../reports/run-report";
import { reportCsv } from "../reports/write-report-csv";
import { reportXlsx } from "../reports/write-report-xlsx";

const xlsxType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/**
 * What a report is found by: its name, description and keywords, and 'margin' for every report that
 * a Margin view runs too (docs/api.md, "The calls by area").
 */
function searchText(report: (typeof reportCatalogue)[number]): string {
  const margin = (report.filters as readonly string[]).includes("dataType") ? " margin" : "";
  return `${report.name} ${report.description} ${report.keywords}${margin}`.toLowerCase();
}

/** Lookups, reports and help text (docs/api.md); every report number comes from @varia/variance. */
export async function reportRoutes(app: FastifyInstance, deps: AppDeps) {
  // The default months stop at the latest invoiced month, as the actual periods do.
  const defaultsAt = async (organisationId: string) =>
    (await latestInvoicedMonth(deps.db, organisationId)) ?? deps.now();

  registerContract(app, deps, lookupReportList, ({ query }) => {
    const system = query.systemName?.trim().toLowerCase();
    const text = query.value?.trim().toLowerCase();
    return reportCatalogue
      .filter((r) => !system || r.reportType.toLowerCase() === system || r.reportID === system)
      .filter((r) => !text || searchText(r).includes(text))
      .map(({ reportID, reportType, name, description }) => ({ reportID, reportType, name, description }));
  });

  registerContract(app, deps, lookupClientList, ({ auth, body }) =>
    findClientPage(deps.db, auth!.organisation.id, body),
  );
  registerContract(app, deps, lookupSkuList, ({ auth, body }) =>
    findSkuPage(deps.db, auth!.organisation.id, body),
  );
  registerContract(app, deps, lookupSalespersonList, ({ auth, body }) =>
    findSalespersonPage(deps.db, auth!.organisation.id, body),
  );

  registerContract(app, deps, reportGetFilter, async ({ auth, query }) =>
    reportFilters(
      (await analysisFor(deps, auth!.organisation.id)).cube,
      query.reportID,
      await defaultsAt(auth!.organisation.id),
    ),
  );

  registerContract(app, deps, reportRun, async ({ auth, body }) => {
    // Forecast/View opens the forecast report only; every other report takes Reports/View.
    if (body.reportID !== "forecast" && !holdsAbility(auth!, abilities.varianceReportsView))
      throw new AppError("Forbidden", missingAbilityMessage([abilities.varianceReportsView]));
    const report = runReport(
      await analysisFor(deps, auth!.organisation.id),
      body,
      await defaultsAt(auth!.organisation.id),
    );
    return {
      ...report,
      rows: report.rows.slice(body.startRow, body.startRow + body.rowLimit),
      startRow: body.startRow,
    };
  });

  registerContract(app, deps, reportExport, async ({ auth, body, reply }) => {
    const report = runReport(
      await analysisFor(deps, auth!.organisation.id),
      body,
      await defaultsAt(auth!.organisation.id),
    );
    const periods = [report.dateFrom, report.dateTo].filter(Boolean).join("_to_");
    // A margin export says so in its name and sheet: its headers ('MRR from') are the revenue
    // view's, and a file on its own must not pass for revenue; a report named for revenue is named
    // for margin instead ('Margin by segment', docs/import.md, "Exports").
    const margin = report.dataType === "Margin";
    const named = report.name !== reportCatalogue.find((r) => r.reportID === report.reportID)?.name;
    const stem = named ? report.name.toLowerCase().replace(/[^a-z0-9]+/g, "-") : report.reportID;
    const filename = `varia-${stem}${margin && !named ? "-margin" : ""}-${periods}.${body.format}`;
    reply.header("content-disposition", `attachment; filename="${filename}"`);
    if (body.format === "xlsx") {
      reply.type(xlsxType);
      return Buffer.from(
        reportXlsx({
          sheet: margin && !named ? `${report.name}, margin` : report.name,
          columns: report.columns,
          rows: report.rows,
          totals: report.totals,
          currencyCode: auth!.organisation.currency_code,
        }),
      ) as unknown as string;
    }
    return csvDownload(reply, reportCsv(report.columns, report.rows));
  });

  registerContract(app, deps, helpText, ({ query }) => findHelpText(query.key));
}
